/**
 * Milliseconds of CPU this thread (the event loop's) has used. What a piece of synchronous work
 * costs, unlike the wall clock, which also counts the time other processes had the cores: the
 * fast tests run several files at once, beside whatever else the machine is doing.
 */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}
