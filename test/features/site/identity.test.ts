import { describe, expect, it } from 'vitest';
import { AGENCY, sampleValuesLeft } from '../../../src/features/site/agency.ts';
import {
  checkIdentity,
  identityFileName,
  SampleIdentityError,
} from '../../../src/features/site/identity-check.ts';
import { legalNoticeMarkdown } from '../../../src/features/site/legal-notice.ts';

describe('the agency identity is one file, with its samples flagged (docs/site.md)', () => {
  it('lists every shipped sample value by its path', () => {
    const samples = sampleValuesLeft();
    expect(samples).toContain(`legal.siret: ${AGENCY.legal.siret}`);
    expect(samples).toContain(`team[0].name: ${AGENCY.team[0]?.name}`);
    // Values the agency decides itself (the free diagnostic, the 24-hour promise) are not samples.
    expect(samples.some((line) => line.startsWith('prices[0].'))).toBe(false);
  });

  it('no longer flags a value the operator replaced', () => {
    const edited = structuredClone(AGENCY);
    edited.legal.siret = '123 456 789 00012';
    expect(sampleValuesLeft(edited)).not.toContain(`legal.siret: ${AGENCY.legal.siret}`);
    expect(sampleValuesLeft(edited).length).toBe(sampleValuesLeft().length - 1);
  });

  it('warns in development, refuses in production unless allowed, says nothing once all is real', () => {
    const samples = ['legal.siret: 912 345 678 00014'];
    expect(checkIdentity({ production: false, allowSamples: false }, samples)).toEqual([
      `warning: sample identity value in ${identityFileName()}, legal.siret: 912 345 678 00014`,
    ]);
    expect(() => checkIdentity({ production: true, allowSamples: false }, samples)).toThrow(
      SampleIdentityError,
    );
    expect(checkIdentity({ production: true, allowSamples: true }, samples)).toHaveLength(1);
    expect(checkIdentity({ production: true, allowSamples: false }, [])).toEqual([]);
  });

  it('writes the legal notice from the file: no bracketed placeholder reaches the public', () => {
    const notice = legalNoticeMarkdown();
    expect(notice).toContain(`SIRET : ${AGENCY.legal.siret}`);
    expect(notice).toContain(AGENCY.publicationDirector.name);
    expect(notice).toContain(AGENCY.host.name);
    expect(notice).not.toMatch(/\[[a-zé ]+\](?!\()/);
  });
});
