/** Median of `xs` (the mean of the two middle values for an even count; NaN for none). */
export declare const median: (xs: readonly number[]) => number;
