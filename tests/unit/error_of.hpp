// error_of(f): the message of the mcb::Error that f throws; fails the test
// (and returns "") when f throws something else or nothing.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "mcb/error.hpp"

namespace mcb::test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected mcb::Error, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected mcb::Error, nothing thrown";
  return {};
}

}  // namespace mcb::test
