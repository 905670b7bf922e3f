import { useState } from 'react';

/** A signing secret, shown this once, with a button that copies it. */
export function SecretOnce(props: { url: string; secret: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(props.secret);
    setCopied(true);
  }
  return (
    <section className="secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret for {props.url}</h2>
      <p>
        Copy it now: it is not shown again. The receiver checks each delivery's signature with it.
      </p>
      <p>
        <code>{props.secret}</code>{' '}
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>{' '}
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </p>
      <button type="button" onClick={props.onDismiss}>
        Done
      </button>
    </section>
  );
}
