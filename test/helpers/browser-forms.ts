import type { Locator, Page } from 'playwright-core';

/** What a person types, by API field name (spec 2); audit questions (formData[…]) get a short answer. */
const ANSWERS: Record<string, string> = {
  PRENOM: 'Camille',
  firstName: 'Camille',
  NOM: 'Lefèvre',
  lastName: 'Lefèvre',
  JOB_TITLE: 'Avocate en droit du travail à Lyon',
  SERVICE: 'Être trouvée sur Google Maps',
  DEMANDE: 'Mon cabinet n’apparaît pas quand on cherche « avocat droit du travail Lyon ».',
  SMS: '612345678',
  phone: '06 12 34 56 78',
};

interface Focused {
  inForm: boolean;
  tag: string;
  type: string;
  name: string;
  value: string;
  checked: boolean;
  /** Its label (or its group's legend), as a person reads it. */
  label: string;
  /** docs/quality.md "visible focus": an outline or a shadow is drawn around the focused control. */
  focusVisible: boolean;
}

function focused(form: Locator): Promise<Focused> {
  return form.evaluate((element) => {
    const active = document.activeElement as HTMLInputElement | null;
    const style = active ? getComputedStyle(active) : undefined;
    const outline = style && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const legend = active?.closest('fieldset')?.querySelector('legend')?.textContent ?? '';
    return {
      inForm: !!active && element.contains(active),
      tag: active?.tagName.toLowerCase() ?? '',
      type: active?.type ?? '',
      name: active?.name ?? '',
      value: active?.value ?? '',
      checked: !!active?.checked,
      label: active?.labels?.[0]?.textContent?.trim() || legend.trim(),
      focusVisible: !!outline || (!!style && style.boxShadow !== 'none'),
    };
  });
}

export interface KeyboardFill {
  /** The values entered, by field name, as the API should receive them. */
  sent: Record<string, string>;
  /** Controls reached by Tab whose focus was not visible, or that had no label. */
  problems: string[];
}

/**
 * Fills a form with the keyboard only, as a person who does not use a mouse: Tab from field to field,
 * type in text fields, Space to tick the first choice of each group and the consent box, and stop on
 * the submit button (focused, not pressed). Every stop must show its focus and have a label.
 */
export async function fillWithKeyboard(page: Page, form: Locator, email: string) {
  const fill: KeyboardFill = { sent: {}, problems: [] };
  await form.locator('input:not([type=hidden]), select, textarea').first().focus();
  for (let step = 0; step < 80; step++) {
    const control = await focused(form);
    if (!control.inForm) throw new Error(`Tab left the form before its submit button`);
    const where = `${control.tag}[name="${control.name}"]`;
    if (!control.focusVisible) fill.problems.push(`${where}: focus not visible`);
    if (control.tag === 'button') return fill;
    if (!control.label && control.tag !== 'a') fill.problems.push(`${where}: no label`);
    if (control.tag === 'textarea' || ['text', 'email', 'tel'].includes(control.type)) {
      const text = control.type === 'email' ? email : (ANSWERS[control.name] ?? 'Une dizaine');
      await page.keyboard.type(text);
      fill.sent[control.name] = text;
    } else if (control.type === 'checkbox' || control.type === 'radio') {
      // The first box of a group, and every unnamed box (the consent rule of spec 5, never sent).
      if (!control.name || !(control.name in fill.sent)) {
        await page.keyboard.press('Space');
        if (control.name) fill.sent[control.name] = control.value;
      }
    }
    await page.keyboard.press('Tab');
  }
  throw new Error('no submit button reached after 80 Tab presses');
}

/** The journal's view of a lead's data, flattened as the form names its fields. */
export function asFormFields(data: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (typeof value === 'string') fields[name] = value;
    else if (value && typeof value === 'object') {
      for (const [question, answer] of Object.entries(value)) {
        fields[`${name}[${question}]`] = String(answer);
      }
    }
  }
  return fields;
}
