export async function main(argv: readonly string[]): Promise<number> {
  console.log("baton", argv);
  return 0;
}
