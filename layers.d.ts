/** Types of layers.js (the table of the layers of src/; see there). */
export interface Layer {
  readonly what: string;
  readonly uses: readonly string[];
  readonly types?: readonly string[];
  readonly browser?: true;
  readonly node?: true;
}

export declare const LAYERS: Readonly<Record<string, Layer>>;
