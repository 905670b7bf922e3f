import type { Schemas } from './client';

type Problem = Schemas['ProblemDetails'];

/** An API answer that was not a success, with the problem details the service sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
  ) {
    super(problem.detail ?? problem.title ?? `The service answered ${status}`);
  }

  /** The words a person reads: the title, then what the detail adds. */
  get title(): string {
    if (this.status === 403 && this.problem.code === 'forbidden')
      return 'You do not have permission to do this';
    return this.problem.title ?? 'Something went wrong';
  }

  get detail(): string {
    const fields = (this.problem.errors ?? []).map((e) => e.message).join('; ');
    return [this.problem.detail, fields].filter(Boolean).join(' ');
  }
}

/** Where fetch itself failed (offline, the service restarting): said in words, too. */
const UNREACHABLE = new ApiError(0, {
  title: 'The service cannot be reached',
  detail: 'Check the connection and try again.',
});

/** The data of an openapi-fetch answer, or an ApiError carrying its problem details. */
export async function data<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch {
    throw UNREACHABLE;
  }
  if (answer.response.ok) return answer.data as T;
  const problem = typeof answer.error === 'object' && answer.error !== null ? answer.error : {};
  throw new ApiError(answer.response.status, problem);
}
