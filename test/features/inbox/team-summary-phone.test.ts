import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  teamSummaryEmail,
  type WaitingLead,
} from '../../../src/features/inbox/team-summary-email.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { workerChromium } from '../../helpers/browser.ts';

/*
 * docs/emails.md, « The daily summary »: the summary is read on a phone first. At 390 px, with
 * long names and topics, nothing of it scrolls sideways (Debian's Chromium).
 */
const AT = new Date('2026-11-26T07:30:00Z');
const hour = 3_600_000;

function waiting(index: number, email: string, dueInHours: number): WaitingLead {
  return {
    id: `0190a7b2-3c4d-7e5f-8a9b-${String(index).padStart(12, '0')}`,
    name: `Marie-Ange${index} de La Villemarqué-Duplessis-Montbazon`,
    email,
    kind: index % 2 ? 'Audit' : 'Contact',
    topic: 'Artisans et entreprises du BTP (rénovation énergétique, menuiserie extérieure)',
    receivedAt: new Date(AT.getTime() - 30 * hour),
    dueAt: new Date(AT.getTime() + dueInHours * hour),
    leftMs: Math.max(0, dueInHours * hour),
  };
}

let browser: Browser;
beforeAll(async () => {
  browser = await workerChromium();
});

describe('the daily summary on a phone (docs/emails.md, « The daily summary »)', () => {
  it('fits 390 px: no sideways scrolling, each person once, the names in bold', async () => {
    const leads = [
      waiting(1, 'marie-ange.de-la-villemarque-duplessis@cabinet-tres-long.example.fr', -3),
      waiting(2, 'marie-ange.de-la-villemarque-duplessis@cabinet-tres-long.example.fr', 2),
      ...Array.from({ length: 8 }, (_, index) => waiting(index + 3, `p${index}@example.fr`, 5)),
    ];
    const message = teamSummaryEmail(
      {
        at: AT,
        waiting: leads,
        toSee: [
          {
            id: 'lead-to-see',
            name: 'Marie-Ange de La Villemarqué-Duplessis',
            kind: 'Contact',
            lines: [
              'Nouveau message du prospect',
              'Adresse injoignable : appelez plutôt au 06 12 34 56 78',
            ],
          },
        ],
        waitingTotal: leads.length,
        overdue: 1,
        held: 2,
        heldTooFast: 1,
        minutesAfterMidnight: 8 * 60 + 30,
      },
      {
        from: 'Agence <equipe@agence.example>',
        agencyEmail: 'equipe@agence.example',
        siteUrl: 'https://www.une-agence-au-nom-assez-long.example.fr',
        identity: mailIdentity(),
      },
    );
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.setContent(message.html);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      const bold = await page.locator('strong').allTextContents();
      expect(bold.filter((name) => name.startsWith('Marie-Ange1 '))).toHaveLength(1);
      // Nine people waiting, and the one with a message to read (docs/inbound.md).
      expect(bold).toHaveLength(10);
      expect(bold).toContain('Marie-Ange de La Villemarqué-Duplessis');
    } finally {
      await page.close();
    }
  }, 60_000);
});
