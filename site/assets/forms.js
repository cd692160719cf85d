/* global document, window, fetch, FormData, URLSearchParams, crypto, Event */
/*
 * Progressive enhancement of the lead forms (docs/site.md). Without this file each form is a plain HTML
 * post answered 303 → its thank-you page, or its page again with a message by each field to fix.
 * With it, the same form post goes by fetch and is answered in JSON; the same messages (the form's
 * data-error-* attributes) appear by each field before sending and after a refusal, go away as the
 * field is corrected; long texts show a counter, and nothing typed is cut. External file, no inline script: the CSP stays strict.
 */
(function () {
  'use strict';

  // The spec's confirmation page, for a form that does not name its own.
  var DEFAULT_THANK_YOU = '/contact/merci';
  var NETWORK_MESSAGE =
    'La demande n’a pas pu partir\u00a0: vérifiez votre connexion à Internet, puis réessayez.';

  /**
   * Takes the trap's text input out of the form's named controls, keeping the input itself: an
   * in-browser agent's WebMCP tool is built from the named controls (docs/agents.md), and the trap
   * is no parameter of it. bodyOf still sends what a bot typed into it.
   */
  function hideTrap(form) {
    var input = form.querySelector('input[data-honeypot]');
    if (!input) return null;
    var trap = { input: input, name: input.name };
    input.removeAttribute('name');
    return trap;
  }

  /**
   * The same form post a browser sends without this script (spec 4 rule 1), blanks left out: the bot
   * trap's fields travel with it, which the API reads from form posts only (docs/api-decisions.md).
   * A submit the browser says an agent made (SubmitEvent.agentInvoked, WebMCP's declarative draft)
   * records the consent's channel as `agent` (docs/agents.md).
   */
  function bodyOf(form, trap, agentInvoked) {
    var body = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value.trim() !== '') body.append(name, value);
    });
    if (trap && trap.input.value.trim() !== '') body.append(trap.name, trap.input.value);
    if (!body.has('SMS')) body.delete('SMS__COUNTRY_CODE');
    if (agentInvoked && body.has('consent[channel]')) body.set('consent[channel]', 'agent');
    return body.toString();
  }

  /** Works outside secure contexts too, where crypto.randomUUID is missing. */
  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map
      .call(bytes, function (byte) {
        return (byte + 256).toString(16).slice(1);
      })
      .join('');
  }

  /** "formData.Question" (the API's spelling) is the input named "formData[Question]". */
  function controlsNamed(form, field) {
    var name = field.indexOf('formData.') === 0 ? 'formData[' + field.slice(9) + ']' : field;
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.name === name;
    });
  }

  function isChoice(control) {
    return control.type === 'checkbox' || control.type === 'radio';
  }

  /** Code points, as the API counts its bounds (docs/api-decisions.md). */
  function lengthOf(text) {
    return Array.from(text).length;
  }

  /**
   * "5000" → "5 000", as the server writes it (src/kernel/schemas/form-messages.ts). Not
   * toLocaleString: its first call loads the browser's locale data, a task long enough on a phone
   * to delay the page's first interaction (docs/site.md, "Measured here").
   */
  function frenchNumber(value) {
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  }

  /** The form's own message (data-error-*), the same text the server writes without JavaScript. */
  function message(form, kind, control) {
    var text = form.getAttribute('data-error-' + kind) || '';
    if (kind !== 'too-long') return text;
    var count = lengthOf(control.value);
    var limit = Number(control.getAttribute('data-maxlength'));
    return text
      .replace('{count}', frenchNumber(count))
      .replace('{limit}', frenchNumber(limit))
      .replace('{excess}', frenchNumber(count - limit));
  }

  /** What is wrong with one control before sending, as the schema will judge it, or null. */
  function localProblem(control) {
    if (control.type === 'hidden' || control.disabled) return null;
    if (isChoice(control)) return control.required && !control.checked ? 'consent' : null;
    var value = control.value.trim();
    if (control.required && value === '') return 'missing';
    if (control.type === 'email' && value && !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)) {
      return 'email';
    }
    var limit = Number(control.getAttribute('data-maxlength'));
    if (limit && lengthOf(control.value) > limit) return 'too-long';
    return null;
  }

  /** A box group shows one message, at the end of its fieldset; any other control right after it. */
  function anchorOf(control) {
    var group = isChoice(control) && control.name ? control.closest('fieldset') : null;
    return { group: group, first: group ? group.querySelector('input') : control };
  }

  /**
   * Each control's own aria-describedby (its hint), kept the first time a message is added to it, so
   * clearing the message gives it back. Recorded then, not at load: the page's first task stays short.
   */
  var describedBy = new WeakMap();

  function originalDescribedBy(target) {
    if (!describedBy.has(target)) describedBy.set(target, target.getAttribute('aria-describedby'));
    return describedBy.get(target);
  }

  function clearField(control) {
    var anchor = anchorOf(control);
    var error = document.getElementById(anchor.first.id + '-erreur');
    if (error) error.remove();
    var targets = anchor.group ? anchor.group.querySelectorAll('input') : [control];
    Array.prototype.forEach.call(targets, function (target) {
      target.removeAttribute('aria-invalid');
      var original = originalDescribedBy(target);
      if (original) target.setAttribute('aria-describedby', original);
      else target.removeAttribute('aria-describedby');
    });
  }

  function showFieldError(control, text) {
    clearField(control);
    var anchor = anchorOf(control);
    var error = document.createElement('p');
    error.className = 'field-error';
    error.id = anchor.first.id + '-erreur';
    error.textContent = text;
    if (anchor.group) anchor.group.appendChild(error);
    else control.insertAdjacentElement('afterend', error);
    var targets = anchor.group ? anchor.group.querySelectorAll('input') : [control];
    Array.prototype.forEach.call(targets, function (target) {
      var original = originalDescribedBy(target);
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', (original ? original + ' ' : '') + error.id);
    });
  }

  function setStatus(form, text) {
    form.querySelector('.form-status').textContent = text;
  }

  /** Shows every problem at once, in the form's order, and brings the person to the first. */
  function showProblems(form, problems) {
    problems.forEach(function (problem) {
      showFieldError(problem.control, problem.text);
    });
    setStatus(form, form.getAttribute('data-error-summary'));
    problems[0].control.focus();
  }

  /** A box group the schema requires (data-required-group) with none ticked: its first box, or null. */
  function emptyGroup(fieldset) {
    if (!fieldset.hasAttribute('data-required-group')) return null;
    var boxes = fieldset.querySelectorAll('input[type=checkbox]');
    var ticked = Array.prototype.some.call(boxes, function (box) {
      return box.checked;
    });
    return ticked ? null : boxes[0] || null;
  }

  /**
   * Every problem in the form's order, a required box group with the other fields: a fieldset is one
   * of form.elements, before its boxes, so the group's message comes where the person sees it.
   */
  function localProblems(form) {
    var problems = [];
    Array.prototype.forEach.call(form.elements, function (control) {
      if (control.tagName === 'FIELDSET') {
        var first = emptyGroup(control);
        if (first) problems.push({ control: first, text: message(form, 'choice', first) });
        return;
      }
      var kind = control.name || control.type === 'checkbox' ? localProblem(control) : null;
      if (kind) problems.push({ control: control, text: message(form, kind, control) });
    });
    return problems;
  }

  /**
   * The API's refusal, shown as the server would show it without JavaScript: missing_field names
   * every missing field in its message, invalid_field the first invalid one (error.field).
   */
  function serverProblems(form, error) {
    var named = [];
    (error.message || '').replace(/«\s*([^»]+?)\s*»/g, function (_all, name) {
      named.push(name);
    });
    var fields = error.code === 'missing_field' ? named : [error.field || named[0]];
    var problems = [];
    fields.forEach(function (field) {
      var control = field && controlsNamed(form, field)[0];
      if (!control) return;
      var kind =
        error.code === 'missing_field'
          ? isChoice(control)
            ? 'choice'
            : 'missing'
          : localProblem(control) || (control.type === 'email' ? 'email' : 'invalid');
      var text = kind === 'invalid' ? error.message : message(form, kind, control);
      problems.push({ control: control, text: text });
    });
    return problems;
  }

  function showError(form, error) {
    var problems = serverProblems(form, error);
    if (problems.length) return showProblems(form, problems);
    setStatus(
      form,
      'Le formulaire n’a pas été envoyé. ' + error.message + ' ' + (error.hint || ''),
    );
  }

  /**
   * A counter under each text with a limit: always for long texts, near the limit for short ones.
   * Made when the person first reaches the field, not at load (docs/site.md, "Measured here").
   */
  function updateCounter(control) {
    var limit = Number(control.getAttribute('data-maxlength'));
    if (!limit || control.type === 'hidden') return;
    var counter = document.getElementById(control.id + '-compteur');
    if (!counter) {
      counter = document.createElement('p');
      counter.className = 'counter';
      counter.id = control.id + '-compteur';
      // After the field's message if it has one: the message stays right after its field.
      var before = document.getElementById(control.id + '-erreur') || control;
      before.insertAdjacentElement('afterend', counter);
    }
    var count = lengthOf(control.value);
    var visible = control.tagName === 'TEXTAREA' || count >= limit * 0.8;
    counter.hidden = !visible;
    counter.classList.toggle('over', count > limit);
    counter.textContent =
      count > limit
        ? frenchNumber(count) +
          '\u00a0caractères sur ' +
          frenchNumber(limit) +
          '\u00a0: ' +
          frenchNumber(count - limit) +
          ' de trop'
        : frenchNumber(count) + ' / ' + frenchNumber(limit) + '\u00a0caractères';
  }

  /**
   * « Vouliez-vous dire … ? » under an e-mail field whose domain looks like a big provider's
   * mistyped (docs/site.md): the intake's own suggestion, the one its `email_typo` warning makes,
   * bundled in front of this file by the build as `leadgateEmailTypo`. A polite live region made
   * when the person reaches the field says it, the focus staying where it is; its button fixes the
   * field and gives it the focus back. Nothing is blocked: sent as typed, the lead is accepted.
   */
  function suggestionBox(control) {
    var id = control.id + '-suggestion';
    var box = document.getElementById(id);
    if (box) return box;
    box = document.createElement('div');
    box.className = 'email-suggestion';
    box.id = id;
    box.setAttribute('aria-live', 'polite');
    control.parentNode.appendChild(box);
    return box;
  }

  function suggestAddress(control) {
    var typo = window.leadgateEmailTypo;
    if (!typo || control.type !== 'email') return;
    var box = suggestionBox(control);
    var value = control.value.trim();
    var likely = value && !localProblem(control) ? typo.likelyAddress(value) : undefined;
    box.textContent = '';
    if (!likely || likely === value) return;
    var text = document.createElement('p');
    text.textContent = typo.didYouMean(likely) + ' ';
    var fix = document.createElement('button');
    fix.type = 'button';
    fix.textContent = 'Corriger l’adresse';
    fix.addEventListener('click', function () {
      control.value = likely;
      box.textContent = '';
      control.focus();
      control.dispatchEvent(new Event('input', { bubbles: true }));
    });
    text.appendChild(fix);
    box.appendChild(text);
  }

  function watchAddresses(form) {
    form.addEventListener('focusin', function (event) {
      if (event.target.type === 'email' && window.leadgateEmailTypo) suggestionBox(event.target);
    });
    form.addEventListener('change', function (event) {
      suggestAddress(event.target);
    });
    // A suggestion about what was typed before goes away as the person types again.
    form.addEventListener('input', function (event) {
      var box = event.target.id && document.getElementById(event.target.id + '-suggestion');
      if (box && box.textContent) box.textContent = '';
    });
  }

  /** A message goes away as soon as the field it is about is right. */
  function watchCorrections(form) {
    function recheck(event) {
      var control = event.target;
      if (control.getAttribute('aria-invalid') !== 'true') return;
      var anchor = anchorOf(control);
      var fixed = anchor.group
        ? Array.prototype.some.call(anchor.group.querySelectorAll('input'), function (box) {
            return box.checked;
          })
        : !localProblem(control) && control.value.trim() !== '';
      if (!fixed) return;
      clearField(control);
      if (!form.querySelector('[aria-invalid="true"]')) setStatus(form, '');
    }
    form.addEventListener('input', recheck);
    form.addEventListener('change', recheck);
  }

  function prepare(form) {
    // The same messages as without JavaScript, instead of the browser's own bubbles.
    form.noValidate = true;
    function count(event) {
      updateCounter(event.target);
    }
    form.addEventListener('focusin', count);
    form.addEventListener('input', count);
    watchCorrections(form);
    watchAddresses(form);
  }

  function enhance(form) {
    var sending = false;
    var retry = null;
    var trap = hideTrap(form);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (sending) return;
      var problems = localProblems(form);
      if (problems.length) return showProblems(form, problems);
      setStatus(form, '');
      var body = bodyOf(form, trap, event.agentInvoked === true);
      // Idempotency-Key (docs/reliability.md): the same body sent again reuses it, whatever the first
      // attempt got (no answer, 502, 500): it is the same lead, never a second one (docs/delivery.md).
      var key = retry && retry.body === body ? retry.key : newKey();
      retry = { body: body, key: key };
      sending = true;
      form.setAttribute('aria-busy', 'true');
      fetch(form.action, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
          Accept: 'application/json',
          'Idempotency-Key': key,
        },
        body: body,
      })
        .then(function (response) {
          return response.json().then(
            function (result) {
              if (response.ok && result && result.success) {
                var next = form.getAttribute('data-thank-you') || DEFAULT_THANK_YOU;
                // docs/emails.md, "The answer promised": the page shows the time the API promised.
                if (result.answerBy) next += '?reponse=' + encodeURIComponent(result.answerBy);
                window.location.assign(next);
                return true;
              }
              showError(form, (result && result.error) || { message: NETWORK_MESSAGE });
            },
            function () {
              showError(form, { message: NETWORK_MESSAGE });
            },
          );
        })
        .catch(function () {
          showError(form, { message: NETWORK_MESSAGE });
        })
        .then(function (done) {
          // After success the page is leaving: keep the form busy so it is not sent twice.
          if (done) return;
          sending = false;
          form.removeAttribute('aria-busy');
        });
    });
  }

  document.querySelectorAll('form[data-lead-form]').forEach(function (form) {
    prepare(form);
    enhance(form);
  });

  /** « mercredi 2 décembre à 15 h », Paris time, as the confirmation e-mail writes it. */
  function parisDayAndTime(when) {
    var part = {};
    new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Europe/Paris',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(when)
      .forEach(function (p) {
        part[p.type] = p.value;
      });
    var minutes = part.minute === '00' ? '' : '\u00a0' + part.minute;
    var day = part.day === '1' ? '1er' : part.day;
    return (
      part.weekday + ' ' + day + ' ' + part.month + ' à ' + Number(part.hour) + '\u00a0h' + minutes
    );
  }

  // The thank-you page of a request that promises an answer: its slot shows the promised time.
  var slot = document.querySelector('[data-answer-by]');
  var promised = slot && new URLSearchParams(window.location.search).get('reponse');
  var when = promised ? new Date(promised) : null;
  if (when && !isNaN(when.getTime())) {
    slot.textContent =
      'Concrètement, nous vous répondrons au plus tard ' +
      parisDayAndTime(when) +
      ' (heure de Paris).';
    slot.hidden = false;
  }
})();
