import {
  FORM_TOKEN_FIELD,
  FORM_TOKEN_PLACEHOLDER,
  HONEYPOT_FIELD,
} from '../../src/schemas/bot-trap.ts';
import type { LeadKindDescriptor } from '../../src/schemas/lead-kinds.ts';
import { attributes } from './html.ts';

/**
 * The bot trap every site form carries (docs/api-decisions.md, "Bot trap"), last in the form: a
 * text input a bot fills and a person never meets (moved off-screen by `.trap`, not display:none,
 * which bots skip; hidden from screen readers; out of the Tab order; no autofill), and the token
 * input the server signs as it serves the page (src/http/live-form-page.ts). An in-browser agent
 * reading the WebMCP attributes is told to leave the field empty.
 */
export function botTrap(endpoint: LeadKindDescriptor): string {
  const id = `${endpoint.kind}-${HONEYPOT_FIELD}`;
  return `<div class="trap" aria-hidden="true">
<label for="${id}">Laissez ce champ vide</label>
<input${attributes({ type: 'text', id, name: HONEYPOT_FIELD, tabindex: '-1', autocomplete: 'off', toolparamdescription: 'Ne rien saisir ici. Leave this field empty.' })}>
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${FORM_TOKEN_PLACEHOLDER}">
</div>`;
}
