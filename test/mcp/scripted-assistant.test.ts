import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Email } from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_KINDS } from '../../src/kernel/schemas/lead-kinds.ts';
import type { ErrorResponse, SuccessResponse } from '../../src/kernel/schemas/responses.ts';
import { outboxMails } from '../helpers/outbox.ts';
import { useSiteApp } from '../helpers/site-app.ts';

/*
 * docs/agents.md: an assistant given only the site's address does six tasks for people with
 * /llms.txt and the MCP server it names, and nothing a person asked is lost. Every body starts from
 * an example of the served /llms.txt (the assistant fills in the person's values, in the example's
 * own fields); a deliberate mistake is fixed in one retry with the corrected body of the hint.
 */
const served = useSiteApp();
let base: string;
let llms: string;
let mcp: Client;
beforeAll(async () => {
  base = await served.t.app.listen({ port: 0, host: '127.0.0.1' });
  llms = await (await fetch(`${base}/llms.txt`)).text();
  mcp = new Client({ name: 'scripted-assistant', version: '1.0.0' });
  const endpoint = /outils MCP[^:]* à (\S+) :/.exec(llms)?.[1];
  await mcp.connect(new StreamableHTTPClientTransport(new URL(here(endpoint!))));
});
afterAll(() => mcp?.close());

/** A URL of llms.txt, on the server under test (the site is built for its public address). */
function here(url: string): string {
  const { pathname, search } = new URL(url);
  return `${base}${pathname}${search}`;
}

interface Example {
  url: string;
  body: Record<string, unknown>;
}

/** The JSON example of llms.txt's free text introduced by this action's name. */
function example(name: string): Example {
  const found = [...llms.matchAll(/^(.+), `POST (\S+)` :\n\n```json\n([\s\S]*?)\n```/gm)].find(
    (match) => match[1] === name,
  );
  expect(found, name).toBeDefined();
  return { url: found![2]!, body: JSON.parse(found![3]!) as Record<string, unknown> };
}

/** The example with the person's values, in fields the example has (the assistant invents none). */
function forPerson(template: Example, values: Record<string, unknown>): Record<string, unknown> {
  for (const field of Object.keys(values)) expect(template.body, field).toHaveProperty(field);
  return { ...template.body, ...values };
}

/** The link of llms.txt with this name. */
function linkNamed(name: string | RegExp): string {
  const links = [...llms.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)];
  const found = links.find(([, text]) =>
    typeof name === 'string' ? text === name : name.test(text!),
  );
  expect(found, String(name)).toBeDefined();
  return found![2]!;
}

/** What the assistant sent and what came back: every request counts (docs/agents.md). */
const sent: { task: string; status: number; answer: SuccessResponse | ErrorResponse }[] = [];

async function post(task: string, url: string, body: object) {
  const response = await fetch(here(url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as SuccessResponse | ErrorResponse;
  sent.push({ task, status: response.status, answer });
  return { status: response.status, answer };
}

async function callTool(task: string, name: string, args: Record<string, unknown>) {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const answer = result.structuredContent as unknown as SuccessResponse | ErrorResponse;
  sent.push({ task, status: result.isError ? 400 : 200, answer });
  return answer;
}

/**
 * docs/api-decisions.md, "Errors an agent can act on": the hint ends with the corrected body; the
 * assistant puts what the person said where it reads `<à compléter : label>`, and nothing else.
 */
function corrected(
  error: ErrorResponse,
  said: readonly (readonly [RegExp, string])[] = [],
): Record<string, unknown> {
  const json = /(?:Le corps corrigé|Les arguments corrigés) : (\{.*\})/.exec(error.error.hint)?.[1];
  expect(json, error.error.hint).toBeDefined();
  const filled = json!.replace(/"<à compléter : ([^>]*)>"/g, (_, asked: string) => {
    const answer = said.find(([question]) => question.test(asked));
    expect(answer, `the person is asked: ${asked}`).toBeDefined();
    return JSON.stringify(answer![1]);
  });
  return JSON.parse(filled) as Record<string, unknown>;
}

/** The MCP tool llms.txt names for this action. */
function toolFor(word: string): string {
  const tools = [.../outils MCP[^\n]*/.exec(llms)![0].matchAll(/`(\w+)`/g)].map((m) => m[1]!);
  const tool = tools.find((name) => name.includes(word));
  expect(tool, word).toBeDefined();
  return tool!;
}

const mailsTo = async (address: string, role?: string): Promise<Email[]> =>
  (await outboxMails(served.t.dataDir, role)).filter((mail) =>
    mail.to?.some((to) => to.address === address),
  );

const LAWYER = { email: 'claire.roux@cabinet-roux.example', firstName: 'Claire', lastName: 'Roux' };
const COLLEAGUE = { email: 'thomas.petit@atelier-petit.example', firstName: 'Thomas' };
const LEAVING = { email: 'nadia.morel@morel-fleurs.example', firstName: 'Nadia' };
const CLIENT = {
  PRENOM: 'Sophie',
  NOM: 'Lambert',
  EMAIL: 'sophie.lambert@lambert-boulangerie.example',
  JOB_TITLE: 'Boulangère, Lyon 3e',
  DEMANDE: 'Un site pour la boulangerie, avec les horaires et les commandes de gâteaux.',
};
const MISTAKEN = {
  PRENOM: 'Hugo',
  NOM: 'Garnier',
  EMAIL: 'hugo.garnier@garnier-plomberie.example',
  JOB_TITLE: 'Plombier chauffagiste, Villeurbanne',
  DEMANDE: 'Être trouvé sur Google Maps pour les dépannages.',
};

describe('an assistant with /llms.txt and MCP, six tasks (docs/agents.md)', () => {
  it('1. an audit for a lawyer: the sector’s questionnaire read from its JSON, answered, accepted with a reference', async () => {
    const questionnaires = await Promise.all(
      [...llms.matchAll(/^- \[Questionnaire [^\]]+\]\(([^)]+)\)/gm)].map(async ([, url]) =>
        (await fetch(here(url!))).json(),
      ),
    );
    const forLawyers = questionnaires.find((q: { title: string }) => /avocat/i.test(q.title)) as {
      sector: string;
      questions: { question: string; answer: string; choices?: string[] }[];
    };
    const formData = Object.fromEntries(
      forLawyers.questions.map(({ question, choices }) => [
        question,
        choices?.[0] ?? 'Droit de la famille, à Lyon',
      ]),
    );
    const { status, answer } = await post(
      'audit',
      example('Audit sectoriel').url,
      forPerson(example('Audit sectoriel'), { ...LAWYER, sector: forLawyers.sector, formData }),
    );
    expect(status).toBe(200);
    expect(answer).toMatchObject({ success: true, reference: expect.any(String) });
    expect(answer).not.toHaveProperty('warnings');
    expect(Date.parse((answer as SuccessResponse).answerBy!)).toBeGreaterThan(Date.now());
  });

  it('2. a price question answered from llms.txt, with its source page saying the same, dated', async () => {
    const prices = /Tarifs indicatifs : ([^\n]*)\./.exec(llms)![1]!.split(' ; ');
    const site = prices.find((item) => item.startsWith('Site sur mesure'));
    const price = site!.split(' : ')[1]!;
    expect(price).toMatch(/\d.*€/);
    const source = await fetch(here(linkNamed('Les tarifs')));
    expect(source.status).toBe(200);
    expect(source.headers.get('content-type')).toMatch(/^text\/markdown/);
    const page = await source.text();
    expect(page).toContain(`**Site sur mesure** : ${price}`);
    expect(page).toMatch(/Mise à jour : \d{4}-\d{2}-\d{2}/);
  });

  it('3. a newsletter sign-up for a colleague: the answer says a confirmation link is sent, and it is', async () => {
    const newsletter = example('Lettre mensuelle');
    const { status, answer } = await post(
      'newsletter',
      newsletter.url,
      forPerson(newsletter, COLLEAGUE),
    );
    expect(status).toBe(200);
    expect(answer).toMatchObject({ success: true, existing: false, confirmation: 'sent' });
    expect(await mailsTo(COLLEAGUE.email, 'optin')).toHaveLength(1);
  });

  it('4. « stop everything and erase my data »: unsubscribe and erasure, two links, both honoured', async () => {
    // Before: a subscriber who confirmed, and who once asked for a contact.
    const newsletter = example('Lettre mensuelle');
    await post('erased person', newsletter.url, forPerson(newsletter, LEAVING));
    const [optin] = await mailsTo(LEAVING.email, 'optin');
    const confirm = /https?:\/\/\S+\/newsletter\/confirmation\?jeton=[A-Za-z0-9._-]+/.exec(
      optin!.text!,
    )![0];
    expect((await fetch(here(confirm), { method: 'POST' })).status).toBe(200);
    const contact = example('Demande de contact');
    await post(
      'erased person',
      contact.url,
      forPerson(contact, { ...CLIENT, PRENOM: 'Nadia', NOM: 'Morel', EMAIL: LEAVING.email }),
    );
    const people = served.t.store.people;
    expect(await served.t.store.newsletter.isSubscribed(LEAVING.email)).toBe(true);
    expect((await people.show(LEAVING.email)).leads).toHaveLength(2);

    // The assistant: the privacy action's kinds, as its notes list them, one request each.
    const privacy = example('Demande sur ses données (RGPD)');
    for (const kind of ['unsubscribe', 'erasure']) {
      expect(llms).toContain(`\`${kind}\``);
      const { status, answer } = await post(
        'erased person',
        privacy.url,
        forPerson(privacy, { kind, email: LEAVING.email }),
      );
      expect(status).toBe(200);
      expect(answer).toEqual({ success: true, confirmation: 'sent' });
    }

    // The person: two e-mails, one link each; following both does both.
    const links = (await mailsTo(LEAVING.email, 'privacy-link')).map(
      (mail) =>
        /https?:\/\/\S+\/vos-donnees\/confirmation\?jeton=[A-Za-z0-9._-]+/.exec(mail.text!)![0],
    );
    expect(links).toHaveLength(2);
    for (const link of links)
      expect((await fetch(here(link), { method: 'POST' })).status).toBe(200);
    expect(await served.t.store.newsletter.isSubscribed(LEAVING.email)).toBe(false);
    expect((await people.show(LEAVING.email)).leads).toHaveLength(0);
    const register = await served.t.store.privacyRequests.list();
    expect(register.map(({ kind, status }) => `${kind} ${status}`).sort()).toEqual([
      'erasure done',
      'unsubscribe done',
    ]);
  });

  it('5. a contact through MCP: the tool llms.txt names, the example’s fields, a reference', async () => {
    const tool = toolFor('contact');
    expect((await mcp.listTools()).tools.map(({ name }) => name)).toContain(tool);
    const answer = await callTool(
      'mcp contact',
      tool,
      forPerson(example('Demande de contact'), CLIENT),
    );
    expect(answer).toMatchObject({ success: true, reference: expect.any(String) });
  });

  it('6. deliberate mistakes, each fixed in one retry with the hint’s corrected body', async () => {
    const contact = example('Demande de contact');
    const person = forPerson(contact, MISTAKEN);
    // What the person answers when the assistant asks what a placeholder asks for.
    const said = [
      [/^Nom$/, MISTAKEN.NOM],
      [/Attirer, Engager, Convertir/, 'Attirer'],
      [/téléphone/i, '06 12 34 56 78'],
    ] as const;
    const mistakes: [string, Record<string, unknown>][] = [
      // A misspelled field and a missing one: both in one answer.
      ['PRENON, no NOM', (({ PRENOM, NOM: _, ...rest }) => ({ ...rest, PRENON: PRENOM }))(person)],
      [
        'a value outside the choices',
        { ...person, TYPE_BESOIN: 'Visibilité', EMAIL: `b.${MISTAKEN.EMAIL}` },
      ],
      ['an impossible phone', { ...person, SMS: 'zéro six douze', EMAIL: `c.${MISTAKEN.EMAIL}` }],
    ];
    for (const [mistake, body] of mistakes) {
      const first = await post(mistake, contact.url, body);
      expect(first.status, mistake).toBe(400);
      const retry = await post(
        mistake,
        contact.url,
        corrected(first.answer as ErrorResponse, said),
      );
      expect(retry.status, `${mistake}: ${JSON.stringify(retry.answer)}`).toBe(200);
    }

    // A question without its « ? »: accepted at once, filed under the real question, said in warnings.
    const audit = example('Audit sectoriel');
    const [question, answer] = Object.entries(audit.body.formData as Record<string, string>)[0]!;
    const { status, answer: filed } = await post('question without « ? »', audit.url, {
      ...audit.body,
      email: `d.${MISTAKEN.EMAIL}`,
      formData: { [question.replace(/ ?\?$/, '')]: answer },
    });
    expect(status).toBe(200);
    expect((filed as SuccessResponse).warnings?.map(({ code }) => code)).toEqual([
      'question_matched',
    ]);
    const lead = (await served.t.store.list()).find(
      ({ lead }) => lead.id === (filed as SuccessResponse).reference,
    );
    expect(lead?.lead.data).toMatchObject({ formData: { [question]: answer } });

    // Through MCP: a misspelled argument, fixed with the corrected arguments.
    const newsletter = example('Lettre mensuelle');
    const { firstName, ...rest } = forPerson(newsletter, {
      email: `e.${MISTAKEN.EMAIL}`,
      firstName: 'Hugo',
    });
    const refused = await callTool('MCP: FIRSTNAME', toolFor('newsletter'), {
      ...rest,
      FIRSTNAME: firstName,
    });
    expect(refused.success).toBe(false);
    const fixed = await callTool(
      'MCP: FIRSTNAME',
      toolFor('newsletter'),
      corrected(refused as ErrorResponse),
    );
    expect(fixed).toMatchObject({ success: true, confirmation: 'sent' });
  });
});

/* After the six tasks above (the file's tests run in order, on one app): what they sent, journaled. */
describe('nothing lost', () => {
  it('each accepted request is one delivered lead, its person and the team written to; one retry per mistake', async () => {
    // The erased person's requests are gone on purpose (task 4); every other one stays.
    const kept = sent.filter(({ task, answer }) => answer.success && task !== 'erased person');
    const references = kept.map(({ answer }) => (answer as SuccessResponse).reference!);
    expect(kept.filter(({ answer }) => !(answer as SuccessResponse).reference)).toEqual([]);
    const journal = await served.t.store.list();
    expect(journal.map(({ lead }) => lead.id).sort()).toEqual([...references].sort());
    const files = readdirSync(join(served.t.dataDir, 'outbox'));
    for (const { lead, status } of journal) {
      expect(status, lead.id).toBe('delivered');
      expect(files, lead.id).toContain(
        `${lead.receivedAt.toISOString().slice(0, 10)}-${lead.id}-notification.eml`,
      );
      // The person's own e-mail: the confirmation quoting the reference, or the newsletter's link.
      const kind = LEAD_KINDS.find((descriptor) => descriptor.kind === lead.kind)!;
      const address = String((lead.data as Record<string, unknown>)[kind.fields.email]);
      const [mail, ...more] = await mailsTo(
        address,
        kind.confirmsToSender ? 'confirmation' : 'optin',
      );
      expect(more, lead.id).toEqual([]);
      expect(mail?.text, lead.id).toContain(kind.confirmsToSender ? lead.id : '?jeton=');
    }
    // Each deliberate mistake: one refusal, one retry accepted.
    const mistakes = new Set(sent.filter(({ answer }) => !answer.success).map(({ task }) => task));
    expect(mistakes.size).toBe(4);
    for (const task of mistakes) {
      expect(
        sent.filter((request) => request.task === task).map(({ answer }) => answer.success),
        task,
      ).toEqual([false, true]);
    }
  });
});
