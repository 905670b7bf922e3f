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

/** The list's keyset order: by name, ties by id. */
const ORG_ORDER: KeysetOrder<Organization, { name: string; id: string }> = {
  positionOf: (org) => ({ name: org.name, id: org.id }),
  read: cursorReader({ name: CURSOR_FIELD.text, id: CURSOR_FIELD.uuid }),
};

@Injectable()
export class OrgService {
  constructor(@InjectRepository(Organization) private readonly orgs: Repository<Organization>) {}

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
   * changes counted per organization (its admins, its webhook endpoints). In id order, so two
   * callers locking the same pair cannot deadlock.
   */
  async lockForUpdate(manager: EntityManager, ids: string[]): Promise<void> {
    for (const id of [...new Set(ids)].sort()) {
      await manager.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [id]);
    }
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
