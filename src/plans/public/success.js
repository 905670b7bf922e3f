// The success page: the processor sends the customer here as soon as the hosted checkout ends,
// often before its webhook has reached us. Says "confirmed" only once the subscription is paid;
// until then it checks again, for a couple of minutes. A link that is no checkout we know (the
// status call answers 400 or 404) says so at once, with the care team's contact. No inline
// script (strict CSP).
'use strict';

(function () {
  var STATUS_URL = '/api/lease/checkout-status?session_id=';
  // Seconds between checks: quick at first, then slower; about two minutes in all.
  var DELAYS = [1, 1, 2, 2, 3, 3, 5, 5, 5, 8, 8, 10, 10, 15, 15, 15, 15];

  var box = document.getElementById('confirmation');
  var title = document.getElementById('confirmation-title');
  var status = document.getElementById('confirmation-status');
  var nextSteps = document.getElementById('next-steps');
  var back = document.getElementById('back-to-plans');

  var STATES = {
    paid: {
      title: 'Thank you, your subscription is confirmed',
      status: 'Your payment is confirmed.',
      next: true,
    },
    payment_failed: {
      title: 'Your payment did not go through',
      status: 'Your bank declined the payment. Nothing more will be charged; you can try again.',
      back: true,
    },
    expired: {
      title: 'This checkout is no longer open',
      status: 'Nothing was charged. You can start again from the plans page.',
      back: true,
    },
    canceled: {
      title: 'This subscription has ended',
      status: 'Please contact us if this is not what you expected.',
    },
    slow: {
      title: 'Your payment is still being confirmed',
      status:
        'This is taking longer than usual. We will email you as soon as it is confirmed; you can close this page.',
    },
    // The status call refused the id (400) or knows no such checkout (404): waiting cannot help.
    unknown: {
      title: 'We do not know this checkout',
      status: function () {
        return (
          'This link is not a checkout we know, so there is no payment to show here. ' +
          'If you paid or need help, ' +
          contactLine() +
          '.'
        );
      },
    },
  };

  // The care team's phone and email as the page's contact card shows them (from the server).
  function contactLine() {
    var tel = document.querySelector('#contact a[href^="tel:"]');
    var mail = document.querySelector('#contact a[href^="mailto:"]');
    if (!tel || !mail) return 'please contact our care team';
    return 'call ' + tel.textContent + ' or write to ' + mail.textContent;
  }

  function show(name) {
    var s = STATES[name];
    box.setAttribute('data-state', name);
    title.textContent = s.title;
    status.textContent = typeof s.status === 'function' ? s.status() : s.status;
    nextSteps.hidden = !s.next;
    back.hidden = !s.back;
    title.focus();
  }

  var sessionId = new window.URLSearchParams(window.location.search).get('session_id');
  if (!sessionId) return show('unknown');

  function check(attempt) {
    fetch(STATUS_URL + encodeURIComponent(sessionId), {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    })
      .then(function (res) {
        if (res.status === 400 || res.status === 404) return { status: 'unknown' };
        return res.ok ? res.json() : null;
      })
      .catch(function () {
        return null;
      })
      .then(function (body) {
        var current = body && body.status;
        // pending (or anything unexpected): not confirmed yet, ask again.
        if (current && Object.prototype.hasOwnProperty.call(STATES, current)) return show(current);
        if (attempt >= DELAYS.length) return show('slow');
        window.setTimeout(function () {
          check(attempt + 1);
        }, DELAYS[attempt] * 1000);
      });
  }

  check(0);
})();
