import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { EntityManager, Repository } from 'typeorm';
import { OrgError } from './org.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { decodeKeysetCursor, encodeKeysetCursor } from '../common/pagination/keyset-cursor';
import { Page } from '../common/pagination/page';
import { Organization } from './organization.entity';

export interface OrgPage {
  limit: number;
  cursor?: string;
}

/** Where a page of the name-ordered list ended. */
interface OrgPosition {
  name: string;
  id: string;
}

const readPosition = ({ name, id }: Record<string, unknown>): OrgPosition | undefined =>
  typeof name === 'string' && typeof id === 'string' && isUUID(id) ? { name, id } : undefined;

@Injectable()
export class OrgService {
  constructor(@InjectRepository(Organization) private readonly orgs: Repository<Organization>) {}

  /** `manager`: inside the caller's transaction (the first admin's bootstrap). */
  async create(name: string, manager?: EntityManager): Promise<Organization> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200) {
      throw new OrgError(
        ErrorCode.ValidationFailed,
        'An organization name has 1 to 200 characters.',
        [{ field: 'name', message: 'name must have 1 to 200 characters' }],
      );
    }
    const orgs = manager?.getRepository(Organization) ?? this.orgs;
    return orgs.save(orgs.create({ name: trimmed }));
  }

  async get(id: string): Promise<Organization> {
    const org = isUUID(id) ? await this.orgs.findOneBy({ id }) : null;
    if (!org) throw new OrgError(ErrorCode.NotFound, 'No such organization.');
    return org;
  }

  /** Every organization, by name, a keyset page at a time (operators: `org:list`). */
  async list(page: OrgPage): Promise<Page<Organization>> {
    const after =
      page.cursor === undefined ? undefined : decodeKeysetCursor(page.cursor, readPosition);
    if (page.cursor !== undefined && after === undefined) {
      throw new OrgError(ErrorCode.ValidationFailed, 'Bad cursor.', [
        { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
      ]);
    }
    const query = this.orgs
      .createQueryBuilder('o')
      .orderBy('o.name', 'ASC')
      .addOrderBy('o.id', 'ASC')
      // One extra row tells whether another page follows, without a count.
      .limit(page.limit + 1);
    if (after) query.where('(o.name, o.id) > (:name, CAST(:id AS uuid))', after);
    const rows = await query.getMany();
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items,
      next_cursor:
        rows.length > page.limit ? encodeKeysetCursor({ name: last.name, id: last.id }) : null,
    };
  }
}
