import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Organization } from '../../src/org/organization.entity';
import { OrgService } from '../../src/org/org.service';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export function createOrg(
  app: INestApplicationContext,
  name = unique('org'),
): Promise<Organization> {
  return app.get(OrgService).create(name);
}
