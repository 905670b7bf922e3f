import type { ExecutionContext } from '@nestjs/common';

type Handler = ReturnType<ExecutionContext['getHandler']>;
type Owner = ReturnType<ExecutionContext['getClass']>;

/**
 * A route's decorator metadata, read once per handler and kept: guards asked the Reflector on
 * every request for values fixed when the controller's module loaded (docs/development.md). Keyed
 * by the handler function (weakly); the class is checked too, as a handler inherited by two
 * controllers may carry different class metadata in each.
 */
export class HandlerMetadata<T> {
  private readonly byHandler = new WeakMap<Handler, { owner: Owner; value: T }>();

  constructor(private readonly read: (handler: Handler, owner: Owner) => T) {}

  of(context: ExecutionContext): T {
    const handler = context.getHandler();
    const owner = context.getClass();
    const cached = this.byHandler.get(handler);
    if (cached !== undefined && cached.owner === owner) return cached.value;
    const value = this.read(handler, owner);
    this.byHandler.set(handler, { owner, value });
    return value;
  }
}
