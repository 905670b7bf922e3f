import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { OrgError } from './org.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { CURSOR_FIELD, cursorReader } from '../common/pagination/keyset-cursor';
import { KeysetOrder, keysetPage, PageRequest } from '../common/pagination/keyset-page';
import { Page } from '../common/pagination/page';
import { storedLength } from '../common/validation/stored-length';
import { parseUuid } from '../config/uuid';
import { Organization } from './organization.entity';
import { AuditTrail } from '../audit/audit-trail.service';
import type { AuditActor } from '../audit/audit-event.types';

/** The list's keyset order: by name, ties by id. */
const ORG_ORDER: KeysetOrder<Organization, { name: string; id: string }> = {
  positionOf: (org) => ({ name: org.name, id: org.id }),
  read: cursorReader({ name: CURSOR_FIELD.text, id: CURSOR_FIELD.uuid }),
};

const NO_KEY_UPDATE = { mode: 'for_no_key_update' } as const;

/**
 * Told of a change of an organization's device threshold in its transaction, after the write:
 * the device feature recomputes its deadlines there (reading deviceThresholdSql). A listener,
 * because org/ sits below device/ (ARCHITECTURE.md) and must not import it.
 */
export type DeviceThresholdListener = (manager: EntityManager, orgId: string) => Promise<void>;

@Injectable()
export class OrgService {
  private readonly thresholdListeners: DeviceThresholdListener[] = [];

  constructor(
    @InjectRepository(Organization) private readonly orgs: Repository<Organization>,
    private readonly trail: AuditTrail,
  ) {}

  onDeviceThresholdChange(listener: DeviceThresholdListener): void {
    this.thresholdListeners.push(listener);
  }

  /**
   * Sets (null: resets to DEVICE_OFFLINE_AFTER_SECONDS) when the organization's devices count as
   * offline (contract section 10). Under the organization's row lock, so two changes apply in
   * order; the devices' deadlines and the audit event commit with it.
   */
  async setDeviceOfflineAfter(
    orgId: string,
    seconds: number | null,
    by: AuditActor,
  ): Promise<Organization> {
    const canonical = parseUuid(orgId);
    return this.orgs.manager.transaction(async (m) => {
      const [org] = canonical ? await this.lockRows(m, [canonical]) : [];
      if (!org) throw new OrgError(ErrorCode.NotFound, 'No such organization.');
      const previous = org.deviceOfflineAfterSeconds;
      await m.update(Organization, { id: org.id }, { deviceOfflineAfterSeconds: seconds });
      org.deviceOfflineAfterSeconds = seconds;
      for (const listener of this.thresholdListeners) await listener(m, org.id);
      await this.trail.append(
        {
          action: 'org.device_offline_after_changed',
          actor: by,
          subject: { type: 'organization', id: org.id, orgId: org.id },
          details: { device_offline_after_seconds: seconds, previous },
        },
        m,
      );
      return org;
    });
  }

  /** `manager`: inside the caller's transaction (the first admin's bootstrap). */
  async create(name: string, manager?: EntityManager): Promise<Organization> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || storedLength(trimmed) > 200) {
      throw new OrgError(
        ErrorCode.ValidationFailed,
        'An organization name has 1 to 200 characters.',
        [{ field: 'name', message: 'name must have 1 to 200 characters' }],
      );
    }
    const orgs = manager?.getRepository(Organization) ?? this.orgs;
    return orgs.save(orgs.create({ name: trimmed }));
  }

  /**
   * Row locks on the organizations, held until the caller's transaction ends: what serialises
   * changes of an organization and changes counted per organization (its admins, its webhook
   * endpoints). `FOR NO KEY UPDATE`, not `FOR UPDATE`: that would also hold back every insert
   * that references the org (its devices, users, endpoints) until the change commits. In id
   * order, so two callers locking the same pair cannot deadlock. Returns the rows found.
   */
  async lockRows(manager: EntityManager, ids: string[]): Promise<Organization[]> {
    const locked: Organization[] = [];
    for (const id of [...new Set(ids)].sort()) {
      const org = await manager.findOne(Organization, { where: { id }, lock: NO_KEY_UPDATE });
      if (org) locked.push(org);
    }
    return locked;
  }

  async get(id: string): Promise<Organization> {
    const canonical = parseUuid(id);
    const org = canonical ? await this.orgs.findOneBy({ id: canonical }) : null;
    if (!org) throw new OrgError(ErrorCode.NotFound, 'No such organization.');
    return org;
  }

  /** Every organization, by name, a keyset page at a time (operators: `org:list`). */
  async list(page: PageRequest): Promise<Page<Organization>> {
    return keysetPage(page, ORG_ORDER, (after, take) => {
      const query = this.orgs
        .createQueryBuilder('o')
        .orderBy('o.name', 'ASC')
        .addOrderBy('o.id', 'ASC')
        .limit(take);
      if (after) query.where('(o.name, o.id) > (:name, CAST(:id AS uuid))', after);
      return query.getMany();
    });
  }
}
