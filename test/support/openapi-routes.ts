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
import { REQUIRED_ROLE } from '../../src/auth/role.guard';
import type { TestApp } from './test-app';

/** A route as Nest holds it: what the document must describe, read from the app, not a list. */
export interface NestRoute {
  method: string;
  /** In OpenAPI's form: `/api/v1/devices/{device_id}`. */
  path: string;
  guards: Type[];
  role?: string;
  takesBody: boolean;
}

/** Every documented route of the app's controllers (ApiExcludeController ones are left out). */
export function nestRoutes(t: TestApp): NestRoute[] {
  const controllers = [...t.app.get(ModulesContainer).values()].flatMap((module) => [
    ...module.controllers.values(),
  ]);
  return controllers.flatMap(({ metatype }) => {
    const controller = metatype as Type;
    if (Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)) return [];
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') return [];
      if (!Reflect.hasMetadata(METHOD_METADATA, handler)) return [];
      return [routeOf(controller, handler as Type)];
    });
  });
}

function routeOf(controller: Type, handler: Type): NestRoute {
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
  const segments = [controller, handler].map((t) => String(Reflect.getMetadata(PATH_METADATA, t)));
  const path = ('/' + segments.join('/'))
    .replace(/\/+/g, '/')
    .replace(/\/$/, '')
    .replace(/:(\w+)/g, '{$1}');
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as object;
  return {
    method: method.toLowerCase(),
    path,
    guards: [controller, handler].flatMap(
      (t) => (Reflect.getMetadata(GUARDS_METADATA, t) ?? []) as Type[],
    ),
    role: (Reflect.getMetadata(REQUIRED_ROLE, handler) ??
      Reflect.getMetadata(REQUIRED_ROLE, controller)) as string | undefined,
    takesBody: Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`)),
  };
}
