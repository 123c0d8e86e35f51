//! Importers: public dataset files turned into registry items, every file
//! checked before anything is written.

pub mod kilogram;
pub mod sphyr;
