import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DataKeyring } from './data-keyring';
import { PersonalData } from './personal-data.service';

const KEY_CHECK_SQL = 'SELECT key_check FROM data_protection WHERE id = 1';

/**
 * The server's boot, with DATA_ENCRYPTION_PREVIOUS_KEYS set, says whether they are still needed
 * (docs/privacy.md, "Rotating the key"). `data:rekey` moves the key check last, once no data key
 * or webhook secret is left under an older key: a check under the current key with no data key
 * left means nothing needs them. Only the server says it (AppModule), not each command.
 */
@Injectable()
export class PreviousKeysNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('DataKeys');

  constructor(
    private readonly config: AppConfig,
    private readonly keyring: DataKeyring,
    private readonly personalData: PersonalData,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const previous = this.config.dataEncryption.previousKeys.length;
    if (previous === 0) return;
    const [row] = await this.dataSource.query<{ key_check: string }[]>(KEY_CHECK_SQL);
    const needed =
      !row || !this.keyring.isCurrent(row.key_check) || (await this.personalData.notRekeyed()) > 0;
    if (needed) {
      this.logger.warn(
        'some data is still under a previous key: run `npm run cli -- data:rekey` until it prints ' +
          '"key_check":"rewrapped" or "already_current"; keep DATA_ENCRYPTION_PREVIOUS_KEYS until then',
      );
    } else {
      this.logger.log(
        'previous keys no longer needed: no data is under them; remove DATA_ENCRYPTION_PREVIOUS_KEYS',
      );
    }
  }
}
