/** Shapes of the seed's Variant, StrategyVariant and Payload, as stored in the JSON columns. */
export interface Payload {
  type: 'json' | 'csv' | 'string' | 'number';
  value: string;
}

export interface VariantOverride {
  contextName: string;
  values: string[];
}

export interface StrategyVariant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
}

export interface Variant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
  overrides?: VariantOverride[];
}
