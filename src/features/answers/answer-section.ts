import type { FastifyRequest } from 'fastify';
import type { Lead } from '../../kernel/lead/lead.ts';
import { csrfField, html, parisTime, type SafeHtml } from '../staff/index.ts';
import { answerTemplates } from './answer-templates.ts';
import type { Answer, AnswerChannel } from './answers.ts';

/** « Répondu par Claire Martin le 2 décembre 2026 à 10:05 », from the lead's first answer. */
export function answeredLine(answers: readonly Answer[]): SafeHtml | '' {
  const first = answers[0];
  if (!first) return '';
  const how = ANSWER_HOW[first.channel];
  return html`<p class="notice">
    <strong>Répondu</strong> ${how} par ${first.by.name} le ${parisTime(first.at)}.
  </p>`;
}

const ANSWER_HOW: Record<AnswerChannel, string> = {
  email: 'par e-mail',
  phone: 'par téléphone',
  mailbox: 'par e-mail depuis sa messagerie',
};

function answerLine(answer: Answer): SafeHtml {
  if (answer.channel !== 'email') {
    const what = answer.channel === 'phone' ? 'appel' : 'e-mail depuis sa messagerie';
    return html`<li>
      ${parisTime(answer.at)}, ${answer.by.name} : ${what}, note « ${answer.body} »
    </li>`;
  }
  const state = answer.sentAt
    ? html`envoyé le ${parisTime(answer.sentAt)}`
    : html`<strong>en attente d’envoi</strong> (voir « Livraison »)`;
  return html`<li>
    ${parisTime(answer.at)}, ${answer.by.name} : e-mail « ${answer.subject ?? ''} », ${state}
    <details>
      <summary>Texte envoyé</summary>
      <pre class="answer-text">${answer.body}</pre>
    </details>
  </li>`;
}

/**
 * The lead page's « Répondre » section (docs/workspace.md): the answers given, the composer (a
 * template chosen by a GET form, so it works without JavaScript; the text stays editable) and
 * « J’ai répondu par téléphone » or « depuis ma messagerie ». `canEmail` is false when no e-mail may go to the address.
 */
export function answerSection(
  request: FastifyRequest,
  lead: Lead,
  answers: readonly Answer[],
  canEmail: { ok: true } | { ok: false; why: string },
): SafeHtml {
  const path = `/equipe/prospects/${lead.id}`;
  const csrf = csrfField(request.csrfToken);
  const templates = answerTemplates(lead);
  const wanted = Number((request.query as Record<string, unknown>).modele ?? 0);
  const chosen = templates[Number.isInteger(wanted) ? wanted : 0];
  const composer = canEmail.ok
    ? html`${
          templates.length > 1
            ? html`<form method="get" action="${path}#repondre">
                <p>
                  <label for="modele">Modèle</label
                  ><select id="modele" name="modele">
                    ${templates.map((template, index) => html`<option value="${index}" ${template === chosen ? html` selected` : ''}>${template.title}</option>`)}
                  </select>
                  <button type="submit">Utiliser ce modèle</button>
                </p>
              </form>`
            : ''
        }
        <form method="post" action="${path}/repondre">
          ${csrf}
          <p>
            <label for="objet">Objet</label
            ><input
              id="objet"
              name="objet"
              maxlength="200"
              required
              value="${chosen?.subject ?? ''}"
            />
          </p>
          <p>
            <label for="message">Message</label
            ><textarea id="message" name="message" rows="12" maxlength="20000" required>
${chosen?.text ?? ''}</textarea>
          </p>
          <p><button type="submit">Envoyer la réponse</button></p>
        </form>`
    : html`<p class="notice">${canEmail.why}</p>`;
  return html`<section id="repondre" aria-labelledby="repondre-titre">
    <h2 id="repondre-titre">Répondre</h2>
    ${answeredLine(answers)}
    ${
      answers.length
        ? html`<ul>
            ${answers.map(answerLine)}
          </ul>`
        : ''
    }
    ${composer}
    <form method="post" action="${path}/appel">
      ${csrf}
      <p>
        <label for="appel">Réponse donnée ailleurs : ce qui a été dit</label
        ><textarea id="appel" name="note" rows="3" maxlength="5000" required></textarea>
      </p>
      <p class="actions">
        <button type="submit" name="moyen" value="telephone">J’ai répondu par téléphone</button
        ><button type="submit" name="moyen" value="messagerie">
          J’ai répondu depuis ma messagerie
        </button>
      </p>
    </form>
  </section>`;
}
