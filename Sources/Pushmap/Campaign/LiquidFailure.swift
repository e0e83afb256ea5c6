/// Why a rendering could not go on with a value, in one sentence: a filter that cannot use its
/// value or an argument, a condition Liquid refuses, a number that cannot stay exact.
struct LiquidFailure: Error {
    let message: String
}
