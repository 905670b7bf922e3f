/** The development provider's few pages: plain HTML, no assets, every value escaped. */

const escape = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem}
input[type=email]{width:100%;padding:.5rem;font-size:1rem}button{padding:.5rem 1rem;font-size:1rem}
pre{background:#f4f4f4;padding:1rem;white-space:pre-wrap;word-break:break-all}
.note{color:#555}</style></head>
<body><h1>${escape(title)}</h1>${body}</body></html>`;

export function homePage(issuer: string, clientId: string): string {
  return page(
    'Development identity provider',
    `<p class="note">A real OpenID Connect provider for development only: it signs in anyone who
types an email. Issuer <code>${escape(issuer)}</code>, client <code>${escape(clientId)}</code>.</p>
<p><a href="/start"><button>Sign in and get an ID token</button></a></p>`,
  );
}

export function signInPage(action: string, clientId: string): string {
  return page(
    'Sign in',
    `<p class="note">Any email is accepted; no password. The client <code>${escape(clientId)}</code>
asks who you are.</p>
<form method="post" action="${escape(action)}">
<p><label>Email<br><input type="email" name="email" required autofocus></label></p>
<p><label><input type="checkbox" name="verified" checked> This provider has verified the email
(<code>email_verified</code>)</label></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}

export function idTokenPage(idToken: string, serviceUrl: string): string {
  const body = JSON.stringify({ id_token: idToken });
  const login =
    `curl -s -c cookies.txt -H 'Content-Type: application/json' \\\n` +
    `  -d '${body}' \\\n  ${serviceUrl}/api/auth/login`;
  return page(
    'Signed in',
    `<p>The ID token, as a dashboard would receive it after the code flow with PKCE:</p>
<pre>${escape(idToken)}</pre>
<p>Sign in to the service with it (the session cookie goes to <code>cookies.txt</code>), then
ask who you are:</p>
<pre>${escape(login)}
curl -s -b cookies.txt ${escape(serviceUrl)}/api/auth/me</pre>
<p><a href="/">Sign in again</a></p>`,
  );
}

export function errorPage(message: string): string {
  return page('Sign-in failed', `<pre>${escape(message)}</pre><p><a href="/">Start again</a></p>`);
}
