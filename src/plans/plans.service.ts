import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { cancelPage, plansPage, successPage } from './plans.pages';

export type PlansPage = 'plans' | 'success' | 'cancel';

/** Renders each page once: its only inputs are configuration values. */
@Injectable()
export class PlansService {
  private readonly pages: Record<PlansPage, string>;

  constructor(config: AppConfig) {
    const contact = config.support;
    this.pages = {
      plans: plansPage(contact),
      success: successPage(contact),
      cancel: cancelPage(),
    };
  }

  page(name: PlansPage): string {
    return this.pages[name];
  }
}
