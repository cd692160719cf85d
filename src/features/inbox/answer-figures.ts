import type { FirstAnswer } from '../answers/index.ts';
import { ANSWERED_KINDS, PROMISED_HOURS } from './answer-promise.ts';
import { businessMsBetween, type BusinessHours } from './business-hours.ts';

/** How one person (or the whole team) kept the promise on the leads first answered in a week. */
export interface AnswerLine {
  /** The staff member's name when they answered; undefined for the whole team. */
  name?: string;
  answered: number;
  /** Answered within the promised 24 business hours (e-mail or call). */
  inTime: number;
  /** Business time from arrival to the first answer, in ms. */
  medianMs: number;
  slowestMs: number;
}

export interface AnswerFigures {
  overall: AnswerLine | undefined;
  /** One line a person, by name. */
  perPerson: AnswerLine[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function lineOf(delays: readonly number[], name?: string): AnswerLine {
  return {
    ...(name !== undefined && { name }),
    answered: delays.length,
    inTime: delays.filter((ms) => ms <= PROMISED_HOURS * 3_600_000).length,
    medianMs: median(delays)!,
    slowestMs: Math.max(...delays),
  };
}

/**
 * docs/workspace.md, « Le tableau de bord »: the promise measured on the real answer, the first
 * e-mail or call of each lead that was promised one, in Paris business hours and French public
 * holidays (business-hours.ts), overall and per person (the one who gave that first answer).
 */
export function answerFigures(firsts: readonly FirstAnswer[], hours: BusinessHours): AnswerFigures {
  const promised = firsts.filter((first) => ANSWERED_KINDS.includes(first.kind));
  const delays = promised.map((first) => businessMsBetween(first.receivedAt, first.at, hours));
  const byPerson = new Map<string, { name: string; delays: number[] }>();
  promised.forEach((first, index) => {
    const person = byPerson.get(first.by.id) ?? { name: first.by.name, delays: [] };
    person.delays.push(delays[index]!);
    byPerson.set(first.by.id, person);
  });
  return {
    overall: promised.length ? lineOf(delays) : undefined,
    perPerson: [...byPerson.values()]
      .map(({ name, delays }) => lineOf(delays, name))
      .sort((a, b) => a.name!.localeCompare(b.name!, 'fr')),
  };
}
