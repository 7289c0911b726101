import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { FeaturePeopleService } from './feature-people.service';

/**
 * A signed-in user's favorite features. Marking one changes only the caller's own list, so any
 * signed-in user may (no permission, as in Unleash); a token acting alone gets 403. 204 rather
 * than Unleash's empty 200: the house answers a write without a body so, and clients read `ok`.
 */
@ApiTags('Features')
@ApiErrors(401, 403, 404)
@Controller('api/admin/projects/:projectId/features/:name/favorites')
export class FavoritesController {
  constructor(private readonly people: FeaturePeopleService) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({ summary: 'Mark a feature as a favorite', operationId: 'addFavoriteFeature' })
  @ApiNoContentResponse({ description: 'It is a favorite (also when it was already)' })
  add(@Param('projectId') projectId: string, @Param('name') name: string): Promise<void> {
    return this.people.addFavorite(projectId, name);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Unmark a favorite feature', operationId: 'removeFavoriteFeature' })
  @ApiNoContentResponse({ description: 'It is not a favorite (also when it was not)' })
  remove(@Param('projectId') projectId: string, @Param('name') name: string): Promise<void> {
    return this.people.removeFavorite(projectId, name);
  }
}
