import { CliCommand, dtoFrom, PAGE_FLAGS, str } from '../common/cli/cli-command';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { OrgListResponse, OrgResponse } from './org-view.dto';
import { OrgModule } from './org.module';
import { OrgService } from './org.service';

export const orgCommands: Record<string, CliCommand> = {
  'org:create': {
    summary: 'Create an organization',
    usage: 'org:create --name N',
    options: { name: { type: 'string', required: true, help: 'its name, 1 to 200 characters' } },
    module: OrgModule,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        OrgResponse.from(await app.get(OrgService).create(str(args, 'name'))),
      ),
  },
  'org:list': {
    summary: 'List organizations by name, a page at a time',
    usage: 'org:list [--limit N] [--cursor C]',
    options: PAGE_FLAGS,
    module: OrgModule,
    prepare: async (args) => {
      const page = await dtoFrom(PageQueryDto, args, ['limit', 'cursor']);
      return async (app) => OrgListResponse.from(await app.get(OrgService).list(page));
    },
  },
};
