/** Shapes of the seed's Variant, StrategyVariant and Payload, as stored in the JSON columns. */
export const PAYLOAD_TYPES = ['json', 'csv', 'string', 'number'] as const;
export const WEIGHT_TYPES = ['variable', 'fix'] as const;

export interface Payload {
  type: (typeof PAYLOAD_TYPES)[number];
  value: string;
}

export interface VariantOverride {
  contextName: string;
  values: string[];
}

export interface StrategyVariant {
  name: string;
  weight: number;
  weightType: (typeof WEIGHT_TYPES)[number];
  stickiness: string;
  payload?: Payload;
}

export interface Variant {
  name: string;
  weight: number;
  weightType: (typeof WEIGHT_TYPES)[number];
  stickiness: string;
  payload?: Payload;
  overrides?: VariantOverride[];
}
