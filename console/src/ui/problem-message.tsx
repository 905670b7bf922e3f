import { ApiError } from '../api/problem';

/** An API error in words: its title and detail, never a raw status or a stack. */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(0, { title: 'Something went wrong' });
  return (
    <div role="alert" className="problem">
      <strong>{e.title}</strong>
      {e.detail && <span> {e.detail}</span>}
    </div>
  );
}
