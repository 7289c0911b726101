/** A feature's tag body is the tag body of the tags module (createTagSchema). */
export { CreateTagDto as CreateFeatureTagDto } from '../../tags/dto/create-tag.dto';
