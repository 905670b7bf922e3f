import type { components, paths } from './openapi';
import type { TestApp } from './test-app';

/**
 * A client typed by the types generated from the served OpenAPI document (openapi.d.ts): a
 * path, a body, a query or an expected status the document does not declare for an operation
 * does not compile, and the response body has the documented type for that status. Specs send
 * deliberately malformed requests through `t.http()` instead.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type PathWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends undefined ? never : P;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M], undefined>;

type Responses<O> = O extends { responses: infer R } ? R : never;
/** The statuses the document declares for the operation. */
export type StatusOf<O> = keyof Responses<O> & number;
type Content<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'application/problem+json': infer B } }
    ? B
    : undefined;
export type BodyOf<O, S extends StatusOf<O>> = Content<Responses<O>[S]>;
export type Problem = components['schemas']['ProblemDetails'];

type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;
type QueryParams<O> = O extends { parameters: { query?: infer X } } ? X : never;

export interface Call<O, S extends StatusOf<O>> {
  expect: S;
  body?: JsonBody<O>;
  params?: PathParams<O>;
  query?: QueryParams<O>;
  /** `Cookie` for session routes, `Authorization` for device routes. */
  headers?: Record<string, string>;
}

export interface TypedResponse<B> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: B;
}

export function apiClient(t: TestApp) {
  return async function call<
    M extends Method,
    P extends PathWith<M>,
    S extends StatusOf<Operation<P, M>>,
  >(
    method: M,
    path: P,
    options: Call<Operation<P, M>, S>,
  ): Promise<TypedResponse<BodyOf<Operation<P, M>, S>>> {
    const params = (options.params ?? {}) as Record<string, string>;
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
    let req = t
      .http()
      [method](url)
      .set(options.headers ?? {});
    if (options.query) req = req.query(options.query as object);
    if (options.body !== undefined) req = req.send(options.body as object);
    const res = await req;
    if (res.status !== options.expect) {
      const got = `${res.status} ${JSON.stringify(res.body)}`;
      throw new Error(`${method.toUpperCase()} ${url}: expected ${options.expect}, got ${got}`);
    }
    return {
      status: res.status,
      headers: res.headers,
      body: res.body as BodyOf<Operation<P, M>, S>,
    };
  };
}
