//! Typed dense indices, after Cranelift's `entity_impl!`: a `u32` newtype per kind of thing a
//! table is indexed by, so that two numbering schemes cannot be mixed up and no crate converts
//! one to another by hand. `entity_index!` defines one, with `new(usize)` and `index()`.

/// Defines `$name` as a typed index: a `Copy` `u32` newtype, ordered and hashable, made with
/// `$name::new(usize)` and read with `index()`, displayed as `$prefix` followed by the number.
///
/// ```
/// jvm_model::entity_index! {
///     /// A row of some table.
///     pub struct Row = "r";
/// }
/// assert_eq!(Row::new(3).index(), 3);
/// assert_eq!(Row::new(3).to_string(), "r3");
/// ```
#[macro_export]
macro_rules! entity_index {
    ($(#[$attr:meta])* $vis:vis struct $name:ident = $prefix:literal;) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name(u32);

        impl $name {
            /// The index `index`; dense tables of more than `u32::MAX` entries are not made.
            pub const fn new(index: usize) -> $name {
                debug_assert!(index < u32::MAX as usize);
                $name(index as u32)
            }

            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}
