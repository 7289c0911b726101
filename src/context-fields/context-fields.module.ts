import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConstraintValidator } from './constraint-validator.service';
import { ContextField } from './context-field.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ContextField])],
  providers: [ConstraintValidator],
  exports: [ConstraintValidator],
})
export class ContextFieldsModule {}
