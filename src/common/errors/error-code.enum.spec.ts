import { codeForStatus, ERROR_TABLE, ErrorCode, statusOf } from './error-code.enum';
import { problemOf } from './problem-details';

describe('the error table', () => {
  it('has at most one generic code per status, and that code answers with its status', () => {
    const generic = Object.values(ERROR_TABLE).filter((row) => row.generic);
    const statuses = generic.map((row) => row.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const status of statuses) expect(statusOf(codeForStatus(status))).toBe(status);
  });

  it('maps an HTTP status back to its generic code; an unknown status is an internal error', () => {
    expect(codeForStatus(400)).toBe(ErrorCode.ValidationFailed);
    expect(codeForStatus(403)).toBe(ErrorCode.Forbidden);
    expect(codeForStatus(502)).toBe(ErrorCode.ProcessorUnavailable);
    expect(codeForStatus(503)).toBe(ErrorCode.Unavailable);
    expect(codeForStatus(418)).toBe(ErrorCode.InternalError);
  });

  it("gives a problem its code's status, and the table's detail unless the answer has its own", () => {
    expect(problemOf(ErrorCode.InternalError)).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      code: ErrorCode.InternalError,
      detail: ERROR_TABLE[ErrorCode.InternalError].example,
    });
    expect(problemOf(ErrorCode.Unavailable, 'The service is shutting down.')).toMatchObject({
      status: 503,
      detail: 'The service is shutting down.',
    });
  });
});
