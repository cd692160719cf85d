import {
  FORM_TOKEN_FIELD,
  FORM_TOKEN_PLACEHOLDER,
  HONEYPOT_FIELD,
} from '../../../kernel/schemas/bot-trap.ts';
import type { ApiAction } from '../../../kernel/schemas/lead-kinds.ts';
import { attributes } from './html.ts';

/**
 * The bot trap every site form carries (docs/api-decisions.md, "Bot trap"), last in the form: a
 * text input a bot fills and a person never meets (moved off-screen by `.trap`, not display:none,
 * which bots skip; hidden from screen readers; out of the Tab order; no autofill), and the token
 * input the server signs as it serves the page (src/features/intake/forms/live-form-page.ts).
 * forms.js takes the text input out of the form's named controls (`data-honeypot`), so it is no
 * parameter of the form's WebMCP tool, and sends what a bot typed into it all the same; without
 * scripts, an agent reading the WebMCP attributes is told to leave it empty (docs/agents.md).
 */
export function botTrap(endpoint: Pick<ApiAction, 'kind'>): string {
  const id = `${endpoint.kind}-${HONEYPOT_FIELD}`;
  return `<div class="trap" aria-hidden="true">
<label for="${id}">Laissez ce champ vide</label>
<input${attributes({ type: 'text', id, name: HONEYPOT_FIELD, tabindex: '-1', autocomplete: 'off', 'data-honeypot': true, toolparamdescription: 'Ne rien saisir ici. Leave this field empty.' })}>
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${FORM_TOKEN_PLACEHOLDER}">
</div>`;
}
