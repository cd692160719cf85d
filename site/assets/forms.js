/* global document, window, fetch, FormData, crypto */
/*
 * Progressive enhancement of the lead forms (issue 3). Without this file each form is a plain HTML
 * post answered 303 → /contact/merci. With it, the same fields go as JSON, an error's French message
 * appears next to the field it names (aria-invalid, aria-describedby, role=alert), and success
 * leads to the thank-you page. External file, no inline script: the CSP stays strict.
 */
(function () {
  'use strict';

  var THANK_YOU = '/contact/merci';
  var NETWORK_MESSAGE =
    'La demande n’a pas pu partir : vérifiez votre connexion à Internet, puis réessayez.';

  /** Same shape as the API reads a form (spec 4 rule 1): repeated fields comma-joined, blanks left out. */
  function bodyOf(form) {
    var body = Object.create(null);
    var answers = Object.create(null);
    var hasAnswers = false;
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== 'string' || value.trim() === '') return;
      var question = /^formData\[(.*)\]$/.exec(name);
      if (question) {
        answers[question[1]] = value;
        hasAnswers = true;
      } else {
        body[name] = name in body ? body[name] + ',' + value : value;
      }
    });
    if (hasAnswers) body.formData = answers;
    if (!body.SMS) delete body.SMS__COUNTRY_CODE;
    return body;
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

  /** "formData.Question" in an error message is the input named "formData[Question]". */
  function controlNamed(form, field) {
    var name = field.indexOf('formData.') === 0 ? 'formData[' + field.slice(9) + ']' : field;
    for (var i = 0; i < form.elements.length; i++) {
      if (form.elements[i].name === name) return form.elements[i];
    }
    return null;
  }

  function isChoice(control) {
    return control.type === 'checkbox' || control.type === 'radio';
  }

  function labelOf(control) {
    var source = isChoice(control)
      ? control.closest('fieldset') && control.closest('fieldset').querySelector('legend')
      : control.labels && control.labels[0];
    if (!source) return null;
    return source.textContent.replace(/\s*(\*|\(facultatif\))\s*$/, '').trim();
  }

  function clearErrors(form) {
    form.querySelectorAll('.field-error').forEach(function (node) {
      node.remove();
    });
    form.querySelectorAll('[aria-invalid]').forEach(function (control) {
      control.removeAttribute('aria-invalid');
      var original = control.getAttribute('data-describedby');
      if (original) control.setAttribute('aria-describedby', original);
      else control.removeAttribute('aria-describedby');
    });
    form.querySelector('.form-status').textContent = '';
  }

  function showFieldError(form, control, message) {
    var group = isChoice(control) ? control.closest('fieldset') : null;
    var targets = group ? group.querySelectorAll('input') : [control];
    var error = document.createElement('p');
    error.className = 'field-error';
    error.id = (control.id || 'champ') + '-erreur';
    error.textContent = message;
    if (group) group.appendChild(error);
    else control.insertAdjacentElement('afterend', error);
    Array.prototype.forEach.call(targets, function (target) {
      var before = target.getAttribute('aria-describedby');
      if (before) target.setAttribute('data-describedby', before);
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', (before ? before + ' ' : '') + error.id);
    });
    control.focus();
  }

  function showError(form, error) {
    var status = form.querySelector('.form-status');
    var named = /«\s*([^»]+?)\s*»/.exec(error.message || '');
    var control = named ? controlNamed(form, named[1]) : null;
    var label = control && labelOf(control);
    // People read the field's label, not the API's field name.
    var message = label ? error.message.replace(named[0], '« ' + label + ' »') : error.message;
    if (control) showFieldError(form, control, message);
    status.textContent =
      'Le formulaire n’a pas été envoyé. ' + message + (control ? '' : ' ' + (error.hint || ''));
  }

  function enhance(form) {
    var sending = false;
    var retry = null;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (sending) return;
      clearErrors(form);
      var body = JSON.stringify(bodyOf(form));
      // Idempotency-Key (issue 4): only a retry of the very same body after a lost answer reuses it.
      var key = retry && retry.body === body ? retry.key : newKey();
      sending = true;
      form.setAttribute('aria-busy', 'true');
      fetch(form.action, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Idempotency-Key': key,
        },
        body: body,
      })
        .then(function (response) {
          retry = null;
          return response.json().then(
            function (result) {
              if (response.ok && result && result.success) {
                window.location.assign(THANK_YOU);
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
          retry = { body: body, key: key };
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

  document.querySelectorAll('form[data-lead-form]').forEach(enhance);
})();
