import { Global, Module, Provider, Type } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HousekeepingScheduler } from './housekeeping.scheduler';
import { Housekeeping, HousekeepingTask, RetentionRule } from './housekeeping.service';

/** Global, so each feature registers its own retention rules with `retention(rule)`. */
@Global()
@Module({ providers: [Housekeeping], exports: [Housekeeping] })
export class HousekeepingModule {}

/** A provider that registers the rule with Housekeeping: list it in the feature's module. */
export function retention(rule: RetentionRule): Provider {
  return {
    provide: `retention:${rule.name}`,
    inject: [Housekeeping],
    useFactory: (housekeeping: Housekeeping) => housekeeping.register(rule),
  };
}

/** Like `retention`, for a rule the configuration sets, or turns off (undefined). */
export function configuredRetention(
  name: string,
  ruleOf: (config: AppConfig) => RetentionRule | undefined,
): Provider {
  return {
    provide: `retention:${name}`,
    inject: [Housekeeping, AppConfig],
    useFactory: (housekeeping: Housekeeping, config: AppConfig) => {
      const rule = ruleOf(config);
      if (rule) housekeeping.register(rule);
    },
  };
}

/**
 * A provider that registers a task (a service of the feature's, `inject`ed) with Housekeeping:
 * list it in the feature's module.
 */
export function housekeepingTask(name: string, task: Type<HousekeepingTask>): Provider {
  return {
    provide: `housekeeping-task:${name}`,
    inject: [Housekeeping, task],
    useFactory: (housekeeping: Housekeeping, t: HousekeepingTask) => housekeeping.registerTask(t),
  };
}

/** The server's periodic pass; the command line runs no timers, so it leaves this out. */
@Module({ providers: [HousekeepingScheduler] })
export class HousekeepingSchedulerModule {}
