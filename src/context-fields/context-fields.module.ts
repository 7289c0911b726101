import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConstraintValidator } from './constraint-validator.service';
import { ContextField } from './context-field.entity';
import { ContextFieldsController } from './context-fields.controller';
import { ContextFieldsService } from './context-fields.service';

@Module({
  imports: [TypeOrmModule.forFeature([ContextField])],
  controllers: [ContextFieldsController],
  providers: [ConstraintValidator, ContextFieldsService],
  exports: [ConstraintValidator],
})
export class ContextFieldsModule {}
