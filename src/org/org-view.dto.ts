import { ApiProperty } from '@nestjs/swagger';
import { mapPage, type Page } from '../common/pagination/page';
import { Organization } from './organization.entity';

/** An organization as the API and the command line show it. */
export class OrgResponse {
  @ApiProperty({ format: 'uuid', example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15' }) id!: string;
  @ApiProperty({ example: 'Acme Care' }) name!: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' }) created_at!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description:
      "Seconds without contact before the organization's devices count as offline; null: the " +
      'service default (DEVICE_OFFLINE_AFTER_SECONDS)',
  })
  device_offline_after_seconds!: number | null;

  static from(org: Organization): OrgResponse {
    return {
      id: org.id,
      name: org.name,
      created_at: org.createdAt.toISOString(),
      device_offline_after_seconds: org.deviceOfflineAfterSeconds,
    };
  }
}

/** The signed-in person's organization, and whether it is the one that fulfils subscriptions. */
export class OwnOrgResponse extends OrgResponse {
  @ApiProperty({
    description:
      'True for the organization FULFILMENT_ORG_ID names: its users read subscriptions ' +
      '(/api/v1/subscriptions), so a dashboard shows them',
  })
  fulfilment!: boolean;

  static own(org: Organization, fulfilmentOrgId: string | undefined): OwnOrgResponse {
    return { ...OrgResponse.from(org), fulfilment: org.id === fulfilmentOrgId };
  }
}

/** A page of `org:list`. */
export class OrgListResponse {
  items!: OrgResponse[];
  next_cursor!: string | null;

  static from(page: Page<Organization>): OrgListResponse {
    return mapPage(page, (o) => OrgResponse.from(o));
  }
}
