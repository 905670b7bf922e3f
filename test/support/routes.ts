import type { Type } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import {
  GUARDS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import { REQUIRED_ROLE } from '../../src/common/auth/role.guard';
import type { TestApp } from './test-app';

/** A route as Nest holds it, read from the app's controllers, so tests iterate no list of ours. */
export interface AppRoute {
  /** Lower case, as OpenAPI writes it: `get`. */
  method: string;
  /** Express's form: `/api/v1/devices/:device_id`. */
  path: string;
  /** OpenAPI's form: `/api/v1/devices/{device_id}`. */
  openApiPath: string;
  guards: Type[];
  role?: string;
  takesBody: boolean;
  /** Reads a path parameter or the query string. */
  takesParams: boolean;
  /** The class its `@Body()` is validated against (its parameter's type), if it takes one. */
  bodyDto?: Type;
  controller: Type;
  /** The controller's method that answers it. */
  handlerName: string;
  /** False for controllers left out of the API document (`@ApiExcludeController`). */
  documented: boolean;
}

/** Every route of the app's controllers. */
export function appRoutes(t: TestApp): AppRoute[] {
  const controllers = [...t.app.get(ModulesContainer).values()].flatMap((module) => [
    ...module.controllers.values(),
  ]);
  return controllers.flatMap(({ metatype }) => {
    const controller = metatype as Type;
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') return [];
      if (!Reflect.hasMetadata(METHOD_METADATA, handler)) return [];
      return routesOf(controller, handler as Type);
    });
  });
}

/** The routes as [METHOD, Express path], e.g. `['GET', '/api/v1/devices']`. */
export function routes(t: TestApp): [string, string][] {
  return appRoutes(t).map((r): [string, string] => [r.method.toUpperCase(), r.path]);
}

function routesOf(controller: Type, handler: Type): AppRoute[] {
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as object;
  const takes = (type: RouteParamtypes) => Object.keys(args).some((k) => k.startsWith(`${type}:`));
  const body = Object.entries(args).find(([k]) => k.startsWith(`${RouteParamtypes.BODY}:`));
  const paramTypes = Reflect.getMetadata(
    'design:paramtypes',
    controller.prototype,
    handler.name,
  ) as Type[] | undefined;
  const shared = {
    method: method.toLowerCase(),
    guards: [controller, handler].flatMap(
      (t) => (Reflect.getMetadata(GUARDS_METADATA, t) ?? []) as Type[],
    ),
    role: (Reflect.getMetadata(REQUIRED_ROLE, handler) ??
      Reflect.getMetadata(REQUIRED_ROLE, controller)) as string | undefined,
    takesBody: takes(RouteParamtypes.BODY),
    takesParams: takes(RouteParamtypes.PARAM) || takes(RouteParamtypes.QUERY),
    bodyDto: body && paramTypes?.[(body[1] as { index: number }).index],
    controller,
    handlerName: handler.name,
    documented: !Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller),
  };
  const paths = (t: Type) => [Reflect.getMetadata(PATH_METADATA, t) as string | string[]].flat();
  return paths(controller).flatMap((base) =>
    paths(handler).map((own) => {
      const path = ('/' + [base, own].join('/')).replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
      return { ...shared, path, openApiPath: path.replace(/:(\w+)/g, '{$1}') };
    }),
  );
}
