import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { AffectedLead, AlertCause, DeliveryAlert, DeliveryAlerts } from './alerts.ts';
import { leadName } from '../../kernel/lead/lead.ts';
import type { LeadRequest } from '../../kernel/schemas/lead-kinds.ts';
import { maskText } from '../../kernel/lead/masking.ts';
import { storableText } from '../../kernel/journal/lead-rows.ts';
import type { Database, DeliveryAlertsTable } from '../../kernel/journal/tables.ts';

/** Steps read to name the leads an alert holds: enough for a page of names per cause. */
const AFFECTED_LEADS = 100;

type Taken = { opened: readonly DeliveryAlert[]; healed: readonly DeliveryAlert[] };

/**
 * docs/delivery.md, « Alerts »: one row per cause, shared by every node. Every change is one
 * statement guarded by the row's state, so two nodes never announce one cause twice.
 */
export class SqlDeliveryAlerts implements DeliveryAlerts {
  constructor(
    private readonly db: Kysely<Database>,
    /** A provider's words may quote a key or an address: masked as in the journal. */
    private readonly secrets: readonly string[] = [],
  ) {}

  async record(cause: AlertCause, at: Date): Promise<boolean> {
    const time = at.toISOString();
    const said = storableText(maskText(cause.said, this.secrets));
    const { holds, count = 1, ...columns } = cause;
    const row = await this.db
      .insertInto('delivery_alerts')
      .values({
        ...columns,
        holds: holds ? JSON.stringify(holds) : null,
        said,
        since: time,
        last_at: time,
        count,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb('delivery_alerts.count', '+', eb.ref('excluded.count')),
          // Another destination meeting the same cause (a refused key) holds as many.
          holds: eb.ref('excluded.holds'),
          last_at: eb.ref('excluded.last_at'),
          said: eb.ref('excluded.said'),
          fix: eb.ref('excluded.fix'),
          // Failing again before its recovery note left: still the same open cause. After the
          // note was taken, the agency was told it healed, so it is announced again.
          healed_at: null,
          announced_at: sql`case when delivery_alerts.closing_at is null then delivery_alerts.announced_at end`,
          closing_at: null,
        })),
      )
      .returning(['count', 'since'])
      .executeTakeFirstOrThrow();
    // Inserted now: the row's start is this record's.
    return row.since === time && Number(row.count) === count;
  }

  async heal(
    destination: string,
    at: Date,
    keys: readonly string[] = [],
  ): Promise<DeliveryAlert[]> {
    const causes = (eb: ExpressionBuilder<Database, 'delivery_alerts'>) =>
      keys.length === 0
        ? eb('destination', '=', destination)
        : eb.or([eb('destination', '=', destination), eb('key', 'in', keys)]);
    // Never announced: nobody needs a recovery note.
    const silent = await this.db
      .deleteFrom('delivery_alerts')
      .where(causes)
      .where('announced_at', 'is', null)
      .returningAll()
      .execute();
    const healed = await this.db
      .updateTable('delivery_alerts')
      .set({ healed_at: at.toISOString() })
      .where(causes)
      .where('healed_at', 'is', null)
      .returningAll()
      .execute();
    return this.withWaiting([...silent, ...healed]);
  }

  async open(): Promise<DeliveryAlert[]> {
    const rows = await this.db
      .selectFrom('delivery_alerts')
      .selectAll()
      .where('healed_at', 'is', null)
      .orderBy('since')
      .execute();
    return this.withWaiting(rows);
  }

  async takeToAnnounce(at: Date): Promise<{ opened: DeliveryAlert[]; healed: DeliveryAlert[] }> {
    const time = at.toISOString();
    const opened = await this.db
      .updateTable('delivery_alerts')
      .set({ announced_at: time })
      .where('announced_at', 'is', null)
      .where('healed_at', 'is', null)
      .returningAll()
      .execute();
    const healed = await this.db
      .updateTable('delivery_alerts')
      .set({ closing_at: time })
      .where('announced_at', 'is not', null)
      .where('healed_at', 'is not', null)
      .where('closing_at', 'is', null)
      .returningAll()
      .execute();
    return { opened: await this.withWaiting(opened), healed: await this.withWaiting(healed) };
  }

  async release({ opened, healed }: Taken): Promise<void> {
    if (opened.length > 0) {
      await this.db
        .updateTable('delivery_alerts')
        .set({ announced_at: null })
        .where(
          'key',
          'in',
          opened.map((alert) => alert.key),
        )
        .execute();
    }
    if (healed.length > 0) {
      await this.db
        .updateTable('delivery_alerts')
        .set({ closing_at: null })
        .where(
          'key',
          'in',
          healed.map((alert) => alert.key),
        )
        .execute();
    }
  }

  async close(healed: readonly DeliveryAlert[]): Promise<void> {
    if (healed.length === 0) return;
    await this.db
      .deleteFrom('delivery_alerts')
      .where(
        'key',
        'in',
        healed.map((alert) => alert.key),
      )
      .where('healed_at', 'is not', null)
      .execute();
  }

  /** Each cause with the steps of its destination waiting now (« how many leads wait ») and given up. */
  private async withWaiting(rows: Selectable<DeliveryAlertsTable>[]): Promise<DeliveryAlert[]> {
    if (rows.length === 0) return [];
    const held = new Map(
      rows.map((row) => [
        row.key,
        row.holds ? (JSON.parse(row.holds) as string[]) : [row.destination],
      ]),
    );
    const counts = await this.db
      .selectFrom('delivery_steps')
      .select((eb) => ['destination', 'status', eb.fn.countAll<number | string>().as('steps')])
      .where('destination', 'in', [...new Set([...held.values()].flat())])
      .where('status', 'in', ['pending', 'retrying', 'dead'])
      .groupBy(['destination', 'status'])
      .execute();
    // The leads held, named in the alert and the banner (one page of them: the rest are counted).
    const affected = await this.db
      .selectFrom('delivery_steps')
      .innerJoin('leads', 'leads.id', 'delivery_steps.lead_id')
      .select([
        'leads.id',
        'leads.kind',
        'leads.payload',
        'leads.received_at',
        'delivery_steps.destination',
        'delivery_steps.status',
      ])
      .where('delivery_steps.destination', 'in', [...new Set([...held.values()].flat())])
      .where('delivery_steps.status', 'in', ['pending', 'retrying', 'dead'])
      .orderBy('delivery_steps.received_at')
      .limit(AFFECTED_LEADS)
      .execute();
    const leadsOf = (destinations: readonly string[]): AffectedLead[] => {
      const byId = new Map<string, AffectedLead>();
      for (const row of affected.filter((each) => destinations.includes(each.destination))) {
        const givenUp = row.status === 'dead' || (byId.get(row.id)?.givenUp ?? false);
        const lead = { kind: row.kind, data: JSON.parse(row.payload) } as LeadRequest;
        byId.set(row.id, {
          id: row.id,
          name: leadName(lead),
          receivedAt: new Date(row.received_at),
          givenUp,
        });
      }
      return [...byId.values()];
    };
    const countOf = (destinations: readonly string[], statuses: readonly string[]) =>
      counts
        .filter((row) => destinations.includes(row.destination) && statuses.includes(row.status))
        .reduce((sum, row) => sum + Number(row.steps), 0);
    return rows.map((row) => ({
      key: row.key,
      destination: row.destination,
      provider: row.provider,
      fix: row.fix,
      said: row.said,
      since: new Date(row.since),
      lastAt: new Date(row.last_at),
      count: Number(row.count),
      holds: held.get(row.key)!,
      waiting: countOf(held.get(row.key)!, ['pending', 'retrying']),
      givenUp: countOf(held.get(row.key)!, ['dead']),
      announcedAt: row.announced_at === null ? null : new Date(row.announced_at),
      healedAt: row.healed_at === null ? null : new Date(row.healed_at),
      leads: leadsOf(held.get(row.key)!),
    }));
  }
}
