import { CliCommand, CliNeeds, dtoFrom, PAGE_FLAGS, str } from '../cli/cli-command';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { Organization } from './organization.entity';
import { OrgService } from './org.service';

const ORGS: CliNeeds = { entities: [Organization], providers: [OrgService] };

export const orgCommands: Record<string, CliCommand> = {
  'org:create': {
    summary: 'Create an organization',
    usage: 'org:create --name N',
    options: { name: { type: 'string', required: true, help: 'its name, 1 to 200 characters' } },
    needs: ORGS,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        OrgService.view(await app.get(OrgService).create(str(args, 'name'))),
      ),
  },
  'org:list': {
    summary: 'List organizations by name, a page at a time',
    usage: 'org:list [--limit N] [--cursor C]',
    options: PAGE_FLAGS,
    needs: ORGS,
    prepare: async (args) => {
      const page = await dtoFrom(PageQueryDto, args, ['limit', 'cursor']);
      return (app) => app.get(OrgService).list(page);
    },
  },
};
