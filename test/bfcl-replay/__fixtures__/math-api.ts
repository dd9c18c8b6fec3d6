import { type Args, arg, type BfclApi, type Method, required } from './bfcl-api.js';

const TO_METERS: Readonly<Record<string, number>> = {
  km: 1000,
  m: 1,
  cm: 0.01,
  mm: 0.001,
  um: 1e-6,
  nm: 1e-9,
};

const IMPERIAL: Readonly<Record<string, number>> = {
  cm_to_in: 0.393701,
  in_to_cm: 2.54,
  m_to_ft: 3.28084,
  ft_to_m: 0.3048,
  m_to_yd: 1.09361,
  yd_to_m: 0.9144,
  km_to_miles: 0.621371,
  miles_to_km: 1.60934,
  kg_to_lb: 2.20462,
  lb_to_kg: 0.453592,
  celsius_to_fahrenheit: 1.8,
  fahrenheit_to_celsius: 5 / 9,
};

/**
 * BFCL's MathAPI (math_api.py): stateless arithmetic. `logarithm` and `square_root` take a precision
 * that Python's mpmath and Decimal honour to any number of digits; here the result is a double (rounded to
 * `precision` significant digits for `square_root`), the same value to the precision a double holds.
 */
export class MathApi implements BfclApi {
  readonly methods: Readonly<Record<string, Method>> = {
    logarithm: (args) => ({
      result: Math.log(required<number>(args, 'value')) / Math.log(required<number>(args, 'base')),
    }),
    mean: (args) => ofList(args, 'mean', (numbers) => sum(numbers) / numbers.length),
    standard_deviation: (args) =>
      ofList(args, 'standard deviation', (numbers) => {
        const mean = sum(numbers) / numbers.length;
        return Math.sqrt(sum(numbers.map((x) => (x - mean) ** 2)) / numbers.length);
      }),
    si_unit_conversion: (args) => {
      const value = required<number>(args, 'value');
      const from = required<string>(args, 'unit_in');
      const to = required<string>(args, 'unit_out');
      const inMeters = TO_METERS[from];
      const outMeters = TO_METERS[to];
      if (inMeters === undefined || outMeters === undefined)
        return { error: `Conversion from '${from}' to '${to}' is not supported` };
      return { result: value * inMeters * (1 / outMeters) };
    },
    imperial_si_conversion: (args) => {
      const value = required<number>(args, 'value');
      const from = required<string>(args, 'unit_in');
      const to = required<string>(args, 'unit_out');
      if (from === to) return { result: value };
      const factor = IMPERIAL[`${from}_to_${to}`];
      if (factor === undefined) return { error: `Conversion from '${from}' to '${to}' is not supported` };
      if (from === 'celsius' && to === 'fahrenheit') return { result: value * factor + 32 };
      if (from === 'fahrenheit' && to === 'celsius') return { result: (value - 32) * factor };
      return { result: value * factor };
    },
    add: (args) => ({ result: required<number>(args, 'a') + required<number>(args, 'b') }),
    subtract: (args) => ({ result: required<number>(args, 'a') - required<number>(args, 'b') }),
    multiply: (args) => ({ result: required<number>(args, 'a') * required<number>(args, 'b') }),
    divide: (args) => {
      const b = required<number>(args, 'b');
      return b === 0 ? { error: 'Cannot divide by zero' } : { result: required<number>(args, 'a') / b };
    },
    power: (args) => ({ result: required<number>(args, 'base') ** required<number>(args, 'exponent') }),
    square_root: (args) => {
      const number = required<number>(args, 'number');
      if (number < 0) return { error: 'Cannot calculate square root of a negative number' };
      const digits = Math.min(Math.max(Math.trunc(required<number>(args, 'precision')), 1), 100);
      return { result: Number(Math.sqrt(number).toPrecision(digits)) };
    },
    absolute_value: (args) => ({ result: Math.abs(required<number>(args, 'number')) }),
    round_number: (args) => ({
      result: roundHalfEven(required(args, 'number'), arg(args, 'decimal_places', 0)),
    }),
    percentage: (args) => {
      const whole = required<number>(args, 'whole');
      if (whole === 0) return { error: 'Whole value cannot be zero' };
      return { result: (required<number>(args, 'part') / whole) * 100 };
    },
    min_value: (args) => ofList(args, 'minimum', (numbers) => Math.min(...numbers), 'find'),
    max_value: (args) => ofList(args, 'maximum', (numbers) => Math.max(...numbers), 'find'),
    sum_values: (args) => ofList(args, 'sum', sum),
  };
}

/** A statistic of `numbers`, or the class's error for an empty list. */
function ofList(
  args: Args,
  what: string,
  compute: (numbers: readonly number[]) => number,
  verb: 'calculate' | 'find' = 'calculate',
): unknown {
  const numbers = required<number[]>(args, 'numbers');
  if (numbers.length === 0) return { error: `Cannot ${verb} ${what} of an empty list` };
  return { result: compute(numbers) };
}

function sum(numbers: readonly number[]): number {
  return numbers.reduce((total, x) => total + x, 0);
}

/** Python's `round(number, places)`: halves go to the even neighbour. */
function roundHalfEven(number: number, places: number): number {
  const scale = 10 ** places;
  const scaled = number * scale;
  const floor = Math.floor(scaled);
  const rest = scaled - floor;
  const rounded = rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return rounded / scale;
}
