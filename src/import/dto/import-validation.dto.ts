import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Unleash's importTogglesValidateItemSchema: one finding and the items it concerns. */
@ApiSchema({ name: 'importTogglesValidateItemSchema' })
export class ImportValidationItemDto {
  @ApiProperty() message: string;
  @ApiProperty({ type: [String] }) affectedItems: string[];
}

/** Unleash's importTogglesValidateSchema. */
@ApiSchema({ name: 'importTogglesValidateSchema' })
export class ImportValidationDto {
  @ApiProperty({ type: [ImportValidationItemDto], description: 'Any error stops the import' })
  errors: ImportValidationItemDto[];

  @ApiProperty({ type: [ImportValidationItemDto] })
  warnings: ImportValidationItemDto[];

  @ApiProperty({ type: [ImportValidationItemDto], description: 'What the caller lacks' })
  permissions: ImportValidationItemDto[];
}
