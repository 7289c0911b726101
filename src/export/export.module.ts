import { Module } from '@nestjs/common';
import { ExportController } from './export.controller';
import { ExportService } from './export.service';

/**
 * The export of rules.md §6. It reads the tables of the other modules directly, with set-based
 * raw queries inside one read transaction; nothing imports this module.
 */
@Module({
  controllers: [ExportController],
  providers: [ExportService],
})
export class ExportModule {}
