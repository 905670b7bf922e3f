import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ProblemMessage } from './problem-message';

interface DialogProps {
  title: string;
  /** The submit button's name. */
  action: string;
  onClose: () => void;
  /** Runs on submit; the dialog closes when it resolves and shows the error when it throws. */
  onSubmit: (form: FormData) => Promise<void>;
  children: ReactNode;
  /** False keeps the submit button disabled (a confirmation not yet typed). */
  ready?: boolean;
  danger?: boolean;
}

/**
 * A modal form on the native <dialog>: the browser traps focus, Escape closes it and focus
 * returns to the button that opened it; its title names it for a screen reader.
 */
export function Dialog({
  title,
  action,
  onClose,
  onSubmit,
  children,
  ready = true,
  danger,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  // No close() on cleanup: its close event would call onClose, and React's StrictMode runs
  // the effect twice in development, so the dialog shut itself. Leaving the page closes it.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(new FormData(event.currentTarget));
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <ProblemMessage error={error} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={busy || !ready} className={danger ? 'danger' : 'primary'}>
            {action}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A labelled text field; the label is the field's accessible name. */
export function Field(props: {
  label: string;
  name: string;
  type?: string;
  required?: boolean;
  defaultValue?: string;
  hint?: string;
  onChange?: (value: string) => void;
  multiline?: boolean;
  /** The id of a <datalist> whose options are suggested. */
  list?: string;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: props.name,
    required: props.required,
    defaultValue: props.defaultValue,
    'aria-describedby': hintId,
    onChange: (e: { target: { value: string } }) => props.onChange?.(e.target.value),
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea rows={4} {...common} />
      ) : (
        <input type={props.type ?? 'text'} autoComplete="off" list={props.list} {...common} />
      )}
      {hintId && (
        <small id={hintId} className="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}
