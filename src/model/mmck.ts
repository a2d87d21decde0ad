// M/M/c/K: finite capacity K counting those in service; arrivals finding K present are lost.
import { MAX_SERVERS, checkInteger, checkNonNegative, checkPositive } from './args';
import { birthDeathProbabilities } from './birthDeath';

export interface MmckArgs {
  arrivalRate: number;
  serviceTime: number;
  servers: number;
  capacity: number;
}

export interface MmckResult {
  throughput: number;
  utilization: number;
  meanInSystem: number;
  meanInQueue: number;
  meanResponse: number;
  meanWait: number;
  blocking: number;
  waitProbabilityAdmitted: number;
  probabilities: Float64Array;
}

export const MAX_CAPACITY = 1_000_000;

export function mmck({ arrivalRate, serviceTime, servers, capacity }: MmckArgs): MmckResult {
  checkNonNegative('arrivalRate', arrivalRate);
  checkPositive('serviceTime', serviceTime);
  checkInteger('servers', servers, 1, MAX_SERVERS);
  checkInteger('capacity', capacity, servers, MAX_CAPACITY);
  const p = birthDeathProbabilities(
    capacity,
    () => arrivalRate,
    (n) => Math.min(n, servers) / serviceTime,
  );
  let meanInSystem = 0;
  let meanInQueue = 0;
  let waiting = 0;
  for (let n = 0; n <= capacity; n++) {
    meanInSystem += n * p[n];
    if (n > servers) meanInQueue += (n - servers) * p[n];
    if (n >= servers && n < capacity) waiting += p[n];
  }
  const blocking = p[capacity];
  const throughput = arrivalRate * (1 - blocking);
  // With no arrivals nobody waits: report the service time as the response, not 0/0.
  const meanResponse = throughput > 0 ? meanInSystem / throughput : serviceTime;
  return {
    throughput,
    utilization: (throughput * serviceTime) / servers,
    meanInSystem,
    meanInQueue,
    meanResponse,
    meanWait: meanResponse - serviceTime,
    blocking,
    waitProbabilityAdmitted: blocking < 1 ? waiting / (1 - blocking) : 1,
    probabilities: p,
  };
}
