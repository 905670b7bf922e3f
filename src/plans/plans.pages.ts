/** Server-rendered HTML for the public plans pages. Scripts and styles are separate files (CSP). */

export interface ContactDetails {
  phone: string;
  email: string;
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, body: string, script?: 'plans' | 'success'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/plans/assets/plans.css">
${script ? `<script src="/plans/assets/${script}.js" defer></script>` : ''}
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function contactCard(contact: ContactDetails, hidden: boolean): string {
  const tel = contact.phone.replace(/[^+\d]/g, '');
  return `<section id="contact" class="card contact" tabindex="-1" aria-labelledby="contact-title"${hidden ? ' hidden' : ''}>
  <p id="contact-apology" hidden>Sorry, online checkout is not available right now.</p>
  <h2 id="contact-title">Talk to our care team</h2>
  <p>We will help you choose a plan and set up the device for your family.</p>
  <p>Call <a href="tel:${escape(tel)}">${escape(contact.phone)}</a><br>
  or write to <a href="mailto:${escape(contact.email)}">${escape(contact.email)}</a></p>
</section>`;
}

const field = (
  name: string,
  label: string,
  attrs: string,
  hint?: string,
): string => `<label for="${name}">${label}${hint ? ` <span class="hint" id="${name}-hint">${hint}</span>` : ''}</label>
  <input id="${name}" name="${name}" ${attrs} aria-describedby="${hint ? `${name}-hint ` : ''}${name}-error">
  <p class="field-error" id="${name}-error" role="alert" hidden></p>`;

/** The offer and form start hidden; the script shows them once checkout is known to be enabled. */
export function plansPage(contact: ContactDetails): string {
  return layout(
    'Plans – Device-care',
    `<h1>Care at home, with one small device</h1>
<p class="lead">A device for your loved one, set up for your family, with our care team behind it.</p>
<section id="offer" class="card" aria-labelledby="offer-title" hidden>
  <h2 id="offer-title">Device-care subscription</h2>
  <p class="price"><strong id="lease-price"></strong> device lease, once,<br>
  then <strong id="monthly-price"></strong> a month.</p>
  <ul class="facts">
    <li>We ship the device to the address you give at checkout (US only).</li>
    <li>Cancel the monthly plan at any time.</li>
  </ul>
  <form id="checkout-form" novalidate>
    ${field('name', 'Your name', 'type="text" maxlength="120" autocomplete="name"', 'Optional')}
    ${field('email', 'Your email', 'type="email" maxlength="160" autocomplete="email"', 'Optional; we send the receipt here')}
    ${field('coupon', 'Coupon code', 'type="text" maxlength="64" autocomplete="off" autocapitalize="none" spellcheck="false"', 'Optional')}
    <button id="submit" type="submit">Continue to secure checkout</button>
    <p id="form-status" class="status" role="status" aria-live="polite"></p>
  </form>
  <p class="fine">Payment, phone and delivery address are collected on our payment processor's secure page.</p>
</section>
${contactCard(contact, false)}`,
    'plans',
  );
}

/**
 * The checkout's return page. The processor sends the customer here before its webhook may have
 * arrived, so the page says "confirmed" only once the record is paid: it starts at "confirming"
 * and its script polls the status (success.js).
 */
export function successPage(contact: ContactDetails): string {
  return layout(
    'Thank you – Device-care',
    `<div id="confirmation" data-state="confirming">
<h1 id="confirmation-title" tabindex="-1">We are confirming your payment</h1>
<p id="confirmation-status" class="status" role="status" aria-live="polite">This usually takes a few seconds; this page updates by itself.</p>
<noscript><p>We will email you as soon as your payment is confirmed.</p></noscript>
</div>
<section id="next-steps" class="card" hidden>
  <h2>What happens next</h2>
  <ul class="facts">
    <li>You will receive a receipt by email.</li>
    <li>We prepare the device and ship it to the delivery address you gave at checkout.</li>
    <li>Our care team will contact you to set it up with your loved one.</li>
  </ul>
</section>
<p id="back-to-plans" hidden><a href="/plans">Back to plans</a></p>
${contactCard(contact, false).replace('Talk to our care team', 'Questions?')}`,
    'success',
  );
}

export function cancelPage(): string {
  return layout(
    'Checkout cancelled – Device-care',
    `<h1>Checkout cancelled</h1>
<section class="card">
  <p>Nothing was charged.</p>
  <p><a href="/plans">Back to plans</a></p>
</section>`,
  );
}
