import type { Kysely } from 'kysely';
import type { Handoffs } from './handoffs.ts';
import type { Database } from './tables.ts';

export class SqlHandoffs implements Handoffs {
  constructor(private readonly db: Kysely<Database>) {}

  async handedOver(leadId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('lead_handoffs')
      .select('role')
      .where('lead_id', '=', leadId)
      .execute();
    return rows.map((row) => row.role);
  }

  async record(leadId: string, role: string, at: Date): Promise<void> {
    await this.db
      .insertInto('lead_handoffs')
      .values({ lead_id: leadId, role, handed_over_at: at.toISOString() })
      .onConflict((oc) => oc.columns(['lead_id', 'role']).doNothing())
      .execute();
  }
}
