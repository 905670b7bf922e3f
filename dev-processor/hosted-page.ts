import { Buyer, Json, SAMPLE_BUYER } from './completed-session';
import { str } from './processor-http';

/** The prices this stand-in knows, by id: what the hosted page shows for each line item. */
export interface DevPrice {
  name: string;
  unitAmount: number;
  /** null: paid once, with the first invoice. */
  interval: 'month' | null;
}

const escape = (s: unknown): string => str(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function lineItems(params: Json, prices: Record<string, DevPrice>): string {
  const items = Array.isArray(params.line_items) ? (params.line_items as Json[]) : [];
  const rows = items.map((item) => {
    const price = prices[String(item.price)];
    const quantity = Number(item.quantity ?? 1);
    const what = price ? escape(price.name) : `unknown price ${escape(item.price)}`;
    const amount = price
      ? `${money(price.unitAmount * quantity)}${price.interval ? ' a month' : ''}`
      : '';
    return `<tr><td>${what}${quantity > 1 ? ` × ${quantity}` : ''}</td><td class="amount">${amount}</td></tr>`;
  });
  const discounts = Array.isArray(params.discounts) ? (params.discounts as Json[]) : [];
  const coupons = discounts.map(
    (d) =>
      `<tr><td>Coupon <code>${escape(d.coupon)}</code></td><td class="amount">applied</td></tr>`,
  );
  return `<table id="line-items"><tbody>${[...rows, ...coupons].join('')}</tbody></table>`;
}

const input = (name: string, label: string, value: string, type = 'text') =>
  `<label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" type="${type}" value="${escape(value)}" required>`;

/** The service's custom fields (a text box or a dropdown each), as it asked for them. */
function customFields(params: Json, values: Record<string, string>): string {
  const fields = Array.isArray(params.custom_fields) ? (params.custom_fields as Json[]) : [];
  return fields
    .map((f) => {
      const key = String(f.key);
      const name = `field_${key}`;
      const label = str((f.label as Json | undefined)?.custom) || key;
      const dropdown = f.dropdown as { options?: { value: string; label: string }[] } | undefined;
      if (f.type !== 'dropdown') return input(name, label, values[key] ?? '');
      const options = (dropdown?.options ?? []).map(
        (o) =>
          `<option value="${escape(o.value)}"${o.value === values[key] ? ' selected' : ''}>${escape(o.label)}</option>`,
      );
      return `<label for="${name}">${escape(label)}</label><select id="${name}" name="${name}" required>${options.join('')}</select>`;
    })
    .join('\n');
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f8fa;margin:0}
main{max-width:30rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
.banner{background:#fff3cd;border:1px solid #e0c36a;padding:.5rem .75rem;border-radius:4px;font-size:.9rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}td{padding:.4rem 0;border-bottom:1px solid #eee}
.amount{text-align:right}label{display:block;margin-top:.75rem;font-size:.9rem}
input,select{width:100%;box-sizing:border-box;padding:.45rem;font-size:1rem}
fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:600}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}
button.pay{background:#635bff;color:#fff;border:0;border-radius:4px;flex:1}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><main>
<p class="banner">Development payment processor: no money moves, nothing leaves this machine.</p>
${body}
</main></body></html>`;
}

/** The hosted checkout page of an open session: what was bought, the customer's details, Pay and Cancel. */
export function checkoutPage(
  session: Json,
  params: Json,
  prices: Record<string, DevPrice>,
): string {
  const id = escape(session.id);
  const buyer: Buyer = {
    ...SAMPLE_BUYER,
    email: str(session.customer_email) || SAMPLE_BUYER.email,
  };
  const s = buyer.shipping;
  return layout(
    'Checkout – development processor',
    `<h1>Device-care subscription</h1>
${lineItems(params, prices)}
<form id="pay" method="post" action="/c/pay/${id}/pay">
<fieldset><legend>Contact</legend>
${input('email', 'Email', buyer.email, 'email')}
${input('name', 'Name', buyer.name)}
${input('phone', 'Phone', buyer.phone, 'tel')}
</fieldset>
<fieldset><legend>Shipping address</legend>
${input('ship_name', 'Full name', s.name)}
${input('ship_line1', 'Address line 1', s.line1)}
<label for="ship_line2">Address line 2</label><input id="ship_line2" name="ship_line2" value="${escape(s.line2)}">
${input('ship_city', 'City', s.city)}
${input('ship_state', 'State', s.state)}
${input('ship_postal_code', 'ZIP', s.postal_code)}
<input type="hidden" name="ship_country" value="US">
</fieldset>
<fieldset><legend>About the care recipient</legend>
${customFields(params, buyer.fields)}
</fieldset>
</form>
<form id="cancel" method="post" action="/c/pay/${id}/cancel"></form>
<div class="actions">
<button class="pay" type="submit" form="pay">Pay</button>
<button type="submit" form="cancel" formnovalidate>Cancel</button>
</div>`,
  );
}

/** A session that is no longer open: paid, expired or unknown. */
export function closedPage(message: string): string {
  return layout('Checkout – development processor', `<h1>${escape(message)}</h1>`);
}

/** The hosted page's form, back as a buyer. */
export function buyerFromForm(form: Record<string, string>): Buyer {
  const fields = Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith('field_'))
      .map(([k, v]) => [k.slice('field_'.length), v]),
  );
  return {
    email: form.email ?? '',
    name: form.name ?? '',
    phone: form.phone ?? '',
    shipping: {
      name: form.ship_name ?? '',
      line1: form.ship_line1 ?? '',
      line2: form.ship_line2 ?? '',
      city: form.ship_city ?? '',
      state: form.ship_state ?? '',
      postal_code: form.ship_postal_code ?? '',
      country: form.ship_country ?? 'US',
    },
    fields,
  };
}
