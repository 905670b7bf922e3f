import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataKey } from './data-key.entity';
import { DataKeyring } from './data-keyring';
import { DataProtection } from './data-protection.entity';
import { PersonalData } from './personal-data.service';

/** The master keys and the data keys (docs/privacy.md): what every feature that seals imports. */
@Module({
  imports: [TypeOrmModule.forFeature([DataKey, DataProtection])],
  providers: [DataKeyring, PersonalData],
  exports: [DataKeyring, PersonalData],
})
export class PersonalDataModule {}
