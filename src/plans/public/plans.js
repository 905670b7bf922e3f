// The plans page: shows the offer and the checkout form when checkout is enabled, otherwise keeps
// the contact card the server rendered. No framework, no inline script (strict CSP).
'use strict';

(function () {
  var CONFIG_URL = '/api/lease/checkout-config';
  var CHECKOUT_URL = '/api/lease/checkout';

  var offer = document.getElementById('offer');
  var contact = document.getElementById('contact');
  var apology = document.getElementById('contact-apology');
  var form = document.getElementById('checkout-form');
  var status = document.getElementById('form-status');
  var submit = document.getElementById('submit');

  function money(cents, currency) {
    var whole = cents % 100 === 0;
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: whole ? 0 : 2,
    }).format(cents / 100);
  }

  function showContact(withApology) {
    offer.hidden = true;
    apology.hidden = !withApology;
    contact.hidden = false;
    if (withApology) contact.focus();
  }

  function showOffer(config) {
    document.getElementById('lease-price').textContent = money(config.lease_cents, config.currency);
    document.getElementById('monthly-price').textContent = money(
      config.monthly_cents,
      config.currency,
    );
    offer.hidden = false;
    contact.hidden = true;
  }

  function setFieldError(name, message) {
    var input = form.elements.namedItem(name);
    var error = document.getElementById(name + '-error');
    if (!input || !error) return false;
    error.textContent = message || '';
    error.hidden = !message;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    return true;
  }

  function clearErrors() {
    ['name', 'email', 'coupon'].forEach(function (n) {
      setFieldError(n, '');
    });
    status.textContent = '';
    status.className = 'status';
  }

  function say(message, isError) {
    status.textContent = message;
    status.className = isError ? 'status error' : 'status';
  }

  function safeRedirect(url) {
    var target = new URL(url, window.location.href);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('bad url');
    window.location.assign(target.href);
  }

  function handleProblem(res, body) {
    var code = body && body.code;
    if (code === 'invalid_coupon') {
      setFieldError('coupon', 'This coupon code is not valid. Check it, or leave it empty.');
      form.elements.namedItem('coupon').focus();
    } else if (res.status === 429) {
      var wait = Number(res.headers.get('Retry-After')) || 60;
      say('Too many attempts. Please try again in ' + wait + ' seconds.', true);
    } else if (res.status === 400 && body && Array.isArray(body.errors)) {
      var shown = body.errors.filter(function (e) {
        return setFieldError(e.field, e.message);
      });
      say(shown.length ? 'Please correct the highlighted fields.' : body.detail, true);
    } else if (res.status >= 500) {
      showContact(true);
    } else {
      say((body && body.detail) || 'Something went wrong. Please try again.', true);
    }
  }

  function payload() {
    var data = { source: 'plans' };
    ['name', 'email', 'coupon'].forEach(function (n) {
      var value = form.elements.namedItem(n).value.trim();
      if (value) data[n] = value;
    });
    return data;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors();
    if (!form.reportValidity()) return;
    submit.disabled = true;
    say('Opening secure checkout…', false);
    fetch(CHECKOUT_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload()),
    })
      .then(function (res) {
        return res
          .json()
          .catch(function () {
            return null;
          })
          .then(function (body) {
            if (res.ok && body && body.checkout_url) return safeRedirect(body.checkout_url);
            submit.disabled = false;
            say('', false);
            handleProblem(res, body);
          });
      })
      .catch(function () {
        submit.disabled = false;
        showContact(true);
      });
  });

  fetch(CONFIG_URL, { headers: { Accept: 'application/json' } })
    .then(function (res) {
      return res.ok ? res.json() : null;
    })
    .then(function (config) {
      if (config && config.enabled) showOffer(config);
      else showContact(false);
    })
    .catch(function () {
      showContact(false);
    });
})();
