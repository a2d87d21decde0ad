// The paper's run-time prediction: Time = nit / λe.
import { checkInteger, checkPositive } from './args';

/** Items over throughput. Ignores pipeline fill and drain, so it reads low when `items` is not
 * much larger than the items in flight (tokens or the queues' total capacity). */
export function predictedRunTimeUs(args: { items: number; throughputPerUs: number }): number {
  checkInteger('items', args.items, 1, 100_000_000);
  checkPositive('throughputPerUs', args.throughputPerUs);
  return args.items / args.throughputPerUs;
}
