import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { Subscription } from './subscription.entity';

export type SubscriptionView = Record<string, string | number | null>;

@Injectable()
export class SubscriptionService {
  constructor(
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
  ) {}

  async get(id: string): Promise<Subscription> {
    const found = isUUID(id) ? await this.subscriptions.findOneBy({ id }) : null;
    if (!found) {
      throw new AppException(ErrorCode.NotFound, HttpStatus.NOT_FOUND, 'No such subscription.');
    }
    return found;
  }

  static view(s: Subscription): SubscriptionView {
    return {
      id: s.id,
      product: s.product,
      status: s.status,
      name: s.name,
      email: s.email,
      coupon: s.coupon,
      source: s.source,
      lease_cents: s.leaseCents,
      monthly_cents: s.monthlyCents,
      currency: s.currency,
      checkout_session_id: s.checkoutSessionId,
      last_processor_error: s.lastProcessorError,
      customer_email: s.customerEmail,
      customer_name: s.customerName,
      customer_phone: s.customerPhone,
      recipient_name: s.recipientName,
      living_situation: s.livingSituation,
      primary_concern: s.primaryConcern,
      shipping_address: s.shippingAddress,
      recipient_zip: s.recipientZip,
      processor_subscription_id: s.processorSubscriptionId,
      processor_customer_id: s.processorCustomerId,
      paid_at: s.paidAt?.toISOString() ?? null,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
    };
  }
}
