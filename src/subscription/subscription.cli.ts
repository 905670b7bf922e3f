import { CliCommand, dtoFrom, PAGE_FLAGS } from '../common/cli/cli-command';
import { SUBSCRIPTION_STATUSES } from './subscription.entity';
import { ListSubscriptionsDto, subscriptionPage } from './list-subscriptions.dto';
import { SubscriptionLifecycleModule } from './lifecycle/subscription-lifecycle.module';
import { SubscriptionModule } from './subscription.module';
import { SubscriptionReconciler } from './lifecycle/subscription-reconciler.service';
import { SubscriptionService } from './subscription.service';
import {
  SubscriptionDetailDto,
  SubscriptionExportDto,
  SubscriptionListDto,
  SubscriptionRecordDto,
} from './subscription-view.dto';
import { cliActor } from '../audit/audit-event.types';
import { SubscriptionErasure } from './care-data/subscription-erasure.service';
import { SubscriptionExporter } from './care-data/subscription-exporter.service';
import { ShipDeviceDto } from './shipping/ship-device.dto';
import { SubscriptionDeviceModule } from './shipping/subscription-device.module';
import { SubscriptionShipping } from './shipping/subscription-shipping.service';

export const subscriptionCommands: Record<string, CliCommand> = {
  'subscription:show': {
    summary: 'Print one subscription record, with its history',
    usage: 'subscription:show ID',
    options: {},
    positionals: ['ID'],
    // The records alone (no processor, no lifecycle): these commands only read.
    module: SubscriptionModule,
    // The API's shape (GET /api/v1/subscriptions/{id}), from the same mapper.
    prepare: (args) =>
      Promise.resolve(async (app) =>
        SubscriptionDetailDto.withHistory(
          await app.get(SubscriptionService).detail(args.positionals[0] ?? '', cliActor()),
        ),
      ),
  },
  'subscription:list': {
    summary: 'List subscriptions newest first, a page at a time',
    usage:
      'subscription:list [--status S] [--email E] [--awaiting-device] [--limit N] [--cursor C]',
    options: {
      status: { type: 'string', help: `only this status: ${SUBSCRIPTION_STATUSES.join(', ')}` },
      email: { type: 'string', help: "only the checkout's or the processor's email, exactly" },
      'awaiting-device': {
        type: 'boolean',
        help: 'only paid or past_due records with no device shipped yet, not erased',
      },
      ...PAGE_FLAGS,
    },
    // The records alone (no processor, no lifecycle): these commands only read.
    module: SubscriptionModule,
    prepare: async (args) => {
      const query = await dtoFrom(ListSubscriptionsDto, args, [
        'status',
        'email',
        'awaiting-device',
        'limit',
        'cursor',
      ]);
      const page = subscriptionPage(query);
      return async (app) =>
        SubscriptionListDto.from(await app.get(SubscriptionService).list(page, cliActor()));
    },
  },
  'subscription:erase': {
    summary: 'Erase the personal data of one subscription (not while paid or past_due)',
    usage: 'subscription:erase ID',
    options: {},
    positionals: ['ID'],
    // Erasure asks the processor to delete its customer afterwards.
    module: SubscriptionLifecycleModule,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        SubscriptionRecordDto.from(
          await app.get(SubscriptionErasure).erase(args.positionals[0] ?? '', cliActor()),
        ),
      ),
  },
  'subscription:export': {
    summary: 'Print what is held about one subscription: record, history, deliveries, access',
    usage: 'subscription:export ID',
    options: {},
    positionals: ['ID'],
    module: SubscriptionModule,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        SubscriptionExportDto.from(
          await app.get(SubscriptionExporter).export(args.positionals[0] ?? '', cliActor()),
        ),
      ),
  },
  'subscription:ship': {
    summary: 'Assign the device shipped for a paid or past_due subscription (or a replacement)',
    usage: 'subscription:ship ID --device D [--carrier C] [--tracking-number T]',
    options: {
      device: { type: 'string', required: true, help: 'an active device of the fulfilment org' },
      carrier: { type: 'string', help: 'the carrier, at most 100 characters' },
      'tracking-number': { type: 'string', help: "the carrier's tracking number (stored sealed)" },
    },
    positionals: ['ID'],
    module: SubscriptionDeviceModule,
    prepare: async (args) => {
      // `--device` is the DTO's device_id; the rest are the API's own fields.
      const body = await dtoFrom(ShipDeviceDto, args, ['carrier', 'tracking-number'], {
        device_id: args.values.device,
      });
      return async (app) =>
        SubscriptionRecordDto.from(
          await app.get(SubscriptionShipping).ship(args.positionals[0] ?? '', body, cliActor()),
        );
    },
  },
  'subscription:reconcile': {
    summary: 'Run the reconcile pass once (asks the processor), print what it changed',
    usage: 'subscription:reconcile',
    options: {},
    module: SubscriptionLifecycleModule,
    prepare: () => Promise.resolve((app) => app.get(SubscriptionReconciler).runOnce()),
  },
};
